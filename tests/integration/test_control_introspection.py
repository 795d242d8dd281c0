#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The control API oriel serves is the one protocols/org.oriel.Compositor.xml
documents.

`busctl introspect --xml-interface org.oriel.Compositor /org/oriel/Compositor`
on the session's bus lists the same org.oriel.Compositor.* interfaces
as the XML file, each with the same methods (and no signals or properties
on either side that the other lacks), and every method has the same
arguments in the same order: name, D-Bus type and direction.
"""
import xml.etree.ElementTree as ET

import harness
from harness import Session, expect, expect_eq, tool

XML = harness.REPO / "protocols" / "org.oriel.Compositor.xml"
PREFIX = "org.oriel.Compositor."
EXPECTED_INTERFACES = {PREFIX + n for n in ("Outputs", "Windows", "Screenshot", "Input", "Vnc", "Rdp", "Casts",
                                               "Permission")}


def interfaces(root, where):
    """{interface: {(kind, name): [(arg name, type, direction), ...]}} of the
    org.oriel.Compositor.* interfaces in an introspection document."""
    found = {}
    for iface in root.findall("interface"):
        name = iface.get("name")
        if not name.startswith(PREFIX):
            continue
        expect(name not in found, "%s lists interface %s twice" % (where, name))
        members = {}
        for m in iface:
            if m.tag not in ("method", "signal", "property"):
                continue
            key = (m.tag, m.get("name"))
            expect(key not in members, "%s lists %s %s.%s twice" % (
                where, m.tag, name, m.get("name")))
            if m.tag == "property":
                members[key] = [(m.get("name"), m.get("type"), m.get("access"))]
                continue
            default = "in" if m.tag == "method" else "out"
            members[key] = [(a.get("name"), a.get("type"), a.get("direction", default))
                            for a in m.findall("arg")]
        found[name] = members
    return found


def main():
    expected = interfaces(ET.parse(XML).getroot(), str(XML))
    expect_eq(set(expected), EXPECTED_INTERFACES, "interfaces in %s" % XML)
    n_methods = sum(1 for members in expected.values() for kind, _ in members
                    if kind == "method")
    expect(n_methods >= 4, "%s documents only %d methods" % (XML, n_methods))

    with Session() as s:
        res = s.run_tool([tool("busctl"), "--address=" + s.bus_address,
                          "introspect", "--xml-interface",
                          "org.oriel.Compositor", "/org/oriel/Compositor"])
        try:
            live_root = ET.fromstring(res.stdout)
        except ET.ParseError as e:
            raise harness.TestFailure("busctl introspect printed invalid XML (%s):\n%s"
                                      % (e, res.stdout))
        live = interfaces(live_root, "the live introspection")

    problems = []
    for name in sorted(EXPECTED_INTERFACES | set(live)):
        if name not in live:
            problems.append("%s: documented, not served" % name)
            continue
        if name not in expected:
            problems.append("%s: served, not documented" % name)
            continue
        want, got = expected[name], live[name]
        for key in sorted(set(want) | set(got)):
            kind, member = key
            if key not in got:
                problems.append("%s %s.%s: documented, not served" % (kind, name, member))
            elif key not in want:
                problems.append("%s %s.%s: served, not documented" % (kind, name, member))
            elif want[key] != got[key]:
                problems.append("%s %s.%s: XML has %r, oriel serves %r" % (
                    kind, name, member, want[key], got[key]))
    expect(not problems, "the live control API differs from %s:\n  %s" % (
        XML, "\n  ".join(problems)))
    harness.log("introspection matches %s: %d interfaces, %d methods" % (
        XML.name, len(live), n_methods))


if __name__ == "__main__":
    harness.run(main)
