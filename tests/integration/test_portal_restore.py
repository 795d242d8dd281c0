#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""ScreenCast restore tokens through the real frontend (xdg-desktop-portal
1.16, which keeps the token and hands the backend our restore data back)
and the grants file that `orielctl grants` and `orielctl revoke` share with
the backend ($XDG_STATE_HOME/oriel/portal-grants).

- With a policy that allows the cast but not persisting, a session asking
  for persist_mode 2 gets no restore_token and no grant is written.
- With persist = true it gets a restore_token, and `orielctl grants` lists
  one grant for the unidentified app and the output it cast.
- A second session with that token starts (with the same output) while the
  policy now denies every cast: the grant, not the policy, let it in.
- After `orielctl revoke ID` the grant is gone, and the token no longer
  opens anything: the policy is asked again and denies (response 1).
- orielctl revoke refuses an unknown id (status 1) and a malformed one (2).
pipewire and wireplumber run (casts need them); no frames are consumed.
"""
import json

import harness
import pipewire
import portal
from harness import NotYet, Session, expect, expect_eq, T

NO_PERSIST = "[screencast]\ndefault = deny\nallow-unidentified = true\n"
PERSIST = NO_PERSIST + "persist = true\n"
DENY = "[screencast]\ndefault = deny\n"


def grants(s):
    return json.loads(s.orielctl("grants", "--json", json=False))


def cast_ids(s):
    return [c["id"] for c in json.loads(s.orielctl("cast", "list", "--json", json=False))]


def closed(s, c):
    c.close()

    def none():
        if cast_ids(s):
            raise NotYet("casts %r" % cast_ids(s))
        return True
    s.wait_for(none, T(10), "the cast to stop when the session closes")


def main():
    with Session(outputs=["640x480"]) as s:
        pipewire.start(s)
        out = s.output()
        grants_file = s.home / ".local" / "state" / "oriel" / "portal-grants"
        p = portal.start(s, policy=NO_PERSIST)

        c = portal.Client(s, "--persist-mode", "2")
        c.wait_started()
        expect("restore_token" not in c.step("Start")["results"],
               "a token without persist = true: %r" % c.step("Start"))
        expect_eq(grants(s), [], "grants without persist = true")
        closed(s, c)

        p.set_policy(PERSIST)
        c1 = portal.Client(s, "--persist-mode", "2")
        streams = c1.wait_started()
        token = c1.step("Start")["results"].get("restore_token")
        expect(isinstance(token, str) and token, "no restore_token: %r" % c1.step("Start"))
        listed = grants(s)
        expect_eq(len(listed), 1, "grants after a persisted session")
        g = listed[0]
        expect_eq((g["app_id"], g["kind"], g["sources"]),
                  ("", "screencast", ["monitor:%s" % out["name"]]), "the grant")
        expect(grants_file.is_file(), "no grants file at %s" % grants_file)
        expect(g["id"] in grants_file.read_text(), "the grant is not in the file")
        closed(s, c1)

        # The token starts a session without asking: the policy denies now.
        p.set_policy(DENY)
        c2 = portal.Client(s, "--persist-mode", "2", "--restore-token", token)
        streams2 = c2.wait_started()
        expect_eq([x[1].get("id") for x in streams2], [x[1].get("id") for x in streams],
                  "restored streams' outputs")
        expect_eq(c2.step("Start")["results"].get("restore_token"), token,
                  "the restored session's token")
        expect_eq([x["id"] for x in grants(s)], [g["id"]], "grants after restoring")
        closed(s, c2)

        # Revoked: the token no longer opens anything, the policy decides.
        res = s.orielctl_raw("revoke", g["id"])
        expect_eq(res.returncode, 0, "orielctl revoke: %s" % res.stderr)
        expect_eq(grants(s), [], "grants after revoke")
        c3 = portal.Client(s, "--persist-mode", "2", "--restore-token", token)
        st = c3.wait_step("Start")
        expect_eq((st.get("step"), st.get("response")), ("Start", 1),
                  "Start with a revoked token under a deny policy")
        expect(not cast_ids(s), "a revoked token made a cast")

        expect_eq(s.orielctl_raw("revoke", g["id"]).returncode, 1, "revoking twice")
        expect_eq(s.orielctl_raw("revoke", "not-an-id").returncode, 2,
                  "revoking a malformed id")
        p.check_alive()
        expect_eq(p.stop_backend(), 0, "the backend's exit status on SIGTERM")
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
