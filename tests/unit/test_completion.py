#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""
The bash completion of oriel and orielctl, loaded into bash with
bash-completion, as an interactive shell would: options (oriel's from its
--help), their values, orielctl's commands and subcommands.
"""

import argparse
import os
import subprocess
import sys

BASH_COMPLETION = "/usr/share/bash-completion/bash_completion"

# (function, words, what the completions must include, what they must not)
CASES = [
    ("_oriel", ["oriel", "--vnc-tls"], {"--vnc-tls-cert", "--vnc-tls-key"}, set()),
    ("_oriel", ["oriel", "--de"], {"--debug"}, {"--backend"}),
    ("_oriel", ["oriel", "--vnc-allow-"],
     {"--vnc-allow-user", "--vnc-allow-origin", "--vnc-allow-host"}, set()),
    ("_oriel", ["oriel", "--backend", ""], {"auto", "headless", "drm", "wayland", "x11"},
     set()),
    ("_oriel", ["oriel", "--xwayland", "e"], {"eager"}, {"lazy"}),
    ("_oriel", ["oriel", "--rdp-keyboard", ""], {"client", "session"}, set()),
    ("_oriel", ["oriel", "--rdp-codec", "avc"], {"avc444", "avc420"}, {"auto", "planar"}),
    ("_oriel", ["oriel", "--privileged", "out"], {"output-management="}, set()),
    ("_orielctl", ["orielctl", ""], {"outputs", "windows", "screenshot", "cast", "vnc",
                                     "key", "pointer", "grants", "revoke"}, set()),
    ("_orielctl", ["orielctl", "--json", "cast", ""], {"start", "stop", "list"}, set()),
    ("_orielctl", ["orielctl", "pointer", "button", ""], {"left", "middle", "right"},
     set()),
    ("_orielctl", ["orielctl", "key", "keysym", "Return", ""], {"press", "release", "tap"},
     set()),
    ("_orielctl", ["orielctl", "cast", "start", "--cursor", ""],
     {"hidden", "embedded", "metadata"}, set()),
    ("_orielctl", ["orielctl", "screenshot", "--"], {"--output", "--window", "--region"},
     {"--cursor"}),
    ("_orielctl", ["orielctl", "maximize", "7", ""], {"on", "off"}, set()),
]

SCRIPT = r"""
source %(bash_completion)s
source %(source)s/tools/completion/oriel
source %(source)s/tools/completion/orielctl
COMP_WORDS=("$@")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
COMP_LINE="$*"
COMP_POINT=${#COMP_LINE}
COMPREPLY=()
fn=$FUNCTION
$fn "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}" 2>/dev/null
printf '%%s\n' "${COMPREPLY[@]}"
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--source-root", required=True)
    parser.add_argument("--bin-dir", action="append", default=[])
    args = parser.parse_args()
    script = SCRIPT % {"bash_completion": BASH_COMPLETION, "source": args.source_root}
    env = dict(os.environ)
    env["PATH"] = ":".join(args.bin_dir + [env.get("PATH", "/usr/bin:/bin")])
    failed = 0
    for function, words, want, unwanted in CASES:
        env["FUNCTION"] = function
        result = subprocess.run(["bash", "-c", script, "bash"] + words, env=env,
                                capture_output=True, text=True, timeout=30)
        got = set(result.stdout.split())
        if not want <= got or got & unwanted:
            print("FAIL: %s: got %s, want %s and none of %s" %
                  (" ".join(words), sorted(got), sorted(want), sorted(unwanted)),
                  file=sys.stderr)
            failed += 1
    print("%d cases, %d failed" % (len(CASES), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
