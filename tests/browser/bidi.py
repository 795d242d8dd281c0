# SPDX-License-Identifier: MIT
"""A WebDriver BiDi session on Firefox's remote agent, enough to evaluate
JavaScript in the first tab, like cdp.Page.evaluate does for Chromium:

    page = bidi.Page("ws://127.0.0.1:%d/session" % port)
    page.evaluate("share.result")     # promises awaited

Values cross as JSON (JSON.stringify in the page), which spares decoding
BiDi's own serialisation of remote values.
"""
import json
import time

from cdp import WebSocket


class BiDiError(Exception):
    pass


class Page:
    def __init__(self, ws_url, timeout=30):
        self.ws = WebSocket(ws_url)
        self.next_id = 1
        self.call("session.new", capabilities={})
        tree = self.call("browsingContext.getTree", maxDepth=0)
        if not tree.get("contexts"):
            raise BiDiError("Firefox has no browsing context")
        self.context = tree["contexts"][0]["context"]

    def call(self, method, timeout=30, **params):
        msg_id = self.next_id
        self.next_id += 1
        self.ws.send(json.dumps({"id": msg_id, "method": method, "params": params}))
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BiDiError("no answer to %s within %ss" % (method, timeout))
            msg = json.loads(self.ws.recv(timeout=left))
            if msg.get("id") != msg_id:
                continue  # events: none are subscribed to
            if msg.get("type") == "error":
                raise BiDiError("%s: %s: %s" % (method, msg.get("error"), msg.get("message")))
            return msg.get("result", {})

    def evaluate(self, expression, timeout=30, user_activation=False):
        """The value of a JavaScript expression (promises are awaited);
        user_activation=True makes it count as a user gesture."""
        wrapped = "(async () => JSON.stringify(await (%s)))()" % expression
        res = self.call("script.evaluate", timeout=timeout, expression=wrapped,
                        target={"context": self.context}, awaitPromise=True,
                        resultOwnership="none", userActivation=user_activation)
        if res.get("type") == "exception":
            raise BiDiError("exception in %r: %s" % (
                expression[:80], json.dumps(res.get("exceptionDetails"))[:1000]))
        value = res.get("result", {})
        if value.get("type") != "string":
            return None
        return json.loads(value["value"])

    def close(self):
        try:
            self.call("session.end", timeout=5)
        except Exception:
            pass
        self.ws.close()
