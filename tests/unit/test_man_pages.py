#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""
The man pages against the programs: every option that oriel, orielctl and
xdg-desktop-portal-oriel list in --help, and every key of the config
parser's table, is documented, and the pages document nothing the
programs do not have. Options and keys come from the programs (their
--help output, and the config parser's table through oriel-config-keys),
with the getopt and command tables in the sources as a cross-check, so a
new option or key without its documentation fails here.

Every program meson installs in bindir or libexecdir has a page.

The example oriel.ini is checked too: it parses as shipped, and with every
setting uncommented it parses and shows every key of the table.
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

failures = []


def fail(message):
    failures.append(message)
    print("FAIL: " + message, file=sys.stderr)


def run(*argv):
    result = subprocess.run(argv, capture_output=True, text=True, timeout=30)
    if result.returncode != 0:
        raise SystemExit("%s exited %d: %s" % (" ".join(argv), result.returncode,
                                               result.stderr))
    return result.stdout


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


OPTION = r"--?[A-Za-z][A-Za-z0-9-]*"


def help_options(text):
    """The options a --help text lists: the tokens of each option line's
    first column (up to the gap before its description)."""
    options = set()
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped.startswith("-"):
            continue
        spec = re.split(r"\s{2,}", stripped)[0]
        options.update(re.findall(r"(?:^|[\s,|\[])(" + OPTION + r")", spec))
    return options


def page_options(page):
    """Options a man page documents: the bold terms (*--name*) that start a
    definition line."""
    options = set()
    for line in page.splitlines():
        if line.startswith("*-"):
            options.update(re.findall(r"\*(" + OPTION + r")\*", line))
    return options


def page_terms(page):
    """Every bold term in a page (*term*)."""
    return set(re.findall(r"\*([^*\n]+)\*", page))


def check_options(program, listed, page_name, page, ignore=()):
    documented = page_options(page)
    terms = page_terms(page)
    for option in sorted(listed - set(ignore)):
        if option not in terms:
            fail("%s: %s is in --help but not in %s" % (program, option, page_name))
    for option in sorted(documented - listed):
        fail("%s: %s documents %s, which --help does not list" % (program, page_name,
                                                                  option))


def check_oriel(args, root):
    text = run(args.oriel, "--help")
    listed = help_options(text)
    source = read(os.path.join(root, "compositor", "options.c"))
    table = {"--" + name for name in re.findall(
        r'\{\s*"([a-z0-9-]+)"\s*,\s*(?:no|required|optional)_argument', source)}
    if len(table) < 10:
        fail("oriel: found only %d entries in options.c's getopt table" % len(table))
    for option in sorted(table - listed):
        fail("oriel: --help does not list %s, which the getopt table has" % option)
    for option in sorted({o for o in listed if o.startswith("--")} - table):
        fail("oriel: --help lists %s, which the getopt table lacks" % option)
    check_options("oriel", listed, "oriel.1",
                  read(os.path.join(root, "compositor", "oriel.1.scd")))
    print("oriel: %d options" % len(listed))


def check_orielctl(args, root):
    text = run(args.orielctl, "--help")
    page = read(os.path.join(root, "tools", "orielctl.1.scd"))
    terms = page_terms(page)
    # Options: orielctl's help mentions them both in its option lines and in
    # the commands' synopses (screenshot --window ID).
    listed = set(re.findall(r"(?<![\w-])(" + OPTION + r")", text))
    source = read(os.path.join(root, "tools", "orielctl.c"))
    parsed = set(re.findall(r'"(' + OPTION + r')"', source))
    for option in sorted(parsed - listed):
        fail("orielctl: --help does not list %s, which orielctl.c parses" % option)
    check_options("orielctl", listed, "orielctl.1", page)

    # Commands, and their subcommands ("cast start"), as --help lists them.
    commands = set()
    for line in text.splitlines():
        m = re.match(r"  ([a-z][a-z-]*)(?: ([a-z][a-z-]*))?(?:\s|$)", line)
        if not m:
            continue
        commands.add(m.group(1))
        if m.group(2) and m.group(2) not in ("on", "off"):
            commands.add(m.group(1) + " " + m.group(2))
    table = set(re.findall(r'\{\s*"([a-z-]+)"\s*,\s*\d+\s*,\s*\d+\s*,\s*ctl_cmd_', source))
    if len(table) < 10:
        fail("orielctl: found only %d entries in orielctl.c's command table" % len(table))
    for command in sorted(table - commands):
        fail("orielctl: --help does not list the command %s" % command)
    for command in sorted(commands):
        has_subcommands = any(c.startswith(command + " ") for c in commands)
        if command.split()[0] not in table:
            fail("orielctl: --help lists %s, which is not a command" % command)
        elif command not in terms and not has_subcommands:
            fail("orielctl: the command '%s' is not in orielctl.1" % command)
    print("orielctl: %d options, %d commands" % (len(listed), len(commands)))


def check_portal(args, root):
    page = read(os.path.join(root, "portal", "xdg-desktop-portal-oriel.8.scd"))
    if args.portal:
        listed = help_options(run(args.portal, "--help"))
        check_options("xdg-desktop-portal-oriel", listed, "xdg-desktop-portal-oriel.8",
                      page)
    # portal.ini: the sections and keys that policy.c knows.
    source = read(os.path.join(root, "portal", "policy.c"))
    terms = page_terms(page)
    sections = set(re.findall(r'\[PORTAL_KIND_[A-Z_]+\]\s*=\s*"([a-z-]+)"', source))
    keys = set(re.findall(r'strcmp\(key,\s*"([a-z-]+)"\)', source))
    if len(sections) < 3 or len(keys) < 5:
        fail("portal: found only %d sections and %d keys in policy.c" %
             (len(sections), len(keys)))
    for section in sorted(sections):
        if "[%s]" % section not in terms:
            fail("portal.ini: the section [%s] is not in xdg-desktop-portal-oriel.8" %
                 section)
    documented = set(re.findall(r"^\*([a-z-]+)\* =", page, re.M))
    for key in sorted(keys - documented):
        fail("portal.ini: the key %s is not in xdg-desktop-portal-oriel.8" % key)
    for key in sorted(documented - keys):
        fail("portal.ini: xdg-desktop-portal-oriel.8 documents the key %s, "
             "which policy.c does not read" % key)


def page_config_keys(page):
    """The (section, key) pairs oriel.ini.5 documents: *key* = lines under
    '## [section]' headings."""
    keys = set()
    section = None
    for line in page.splitlines():
        m = re.match(r"##+ \[([a-z-]+)\]", line)
        if m:
            section = m.group(1)
            continue
        if line.startswith("# "):
            section = None
            continue
        m = re.match(r"\*([a-z-]+)\* =", line)
        if m:
            if section is None:
                fail("oriel.ini.5: the key %s is outside any [section]" % m.group(1))
            else:
                keys.add((section, m.group(1)))
    return keys


def ini_keys(text):
    keys = set()
    section = None
    for line in text.splitlines():
        m = re.match(r"\s*\[([a-z-]+)\]", line)
        if m:
            section = m.group(1)
            continue
        m = re.match(r"\s*([a-z-]+)\s*=", line)
        if m and section:
            keys.add((section, m.group(1)))
    return keys


def check_config(args, root):
    table = set()
    for line in run(args.config_keys).splitlines():
        section, key = line.split()
        table.add((section, key))
    if len(table) < 10:
        fail("config: the parser's table has only %d keys" % len(table))
    page = read(os.path.join(root, "compositor", "oriel.ini.5.scd"))
    documented = page_config_keys(page)
    for section, key in sorted(table - documented):
        fail("oriel.ini.5: [%s] %s is missing" % (section, key))
    for section, key in sorted(documented - table):
        fail("oriel.ini.5: documents [%s] %s, which the parser does not know" %
             (section, key))

    # The example: valid as shipped, and with every setting uncommented.
    example_path = os.path.join(root, "compositor", "oriel-example.ini")
    example = read(example_path)
    result = subprocess.run([args.config_keys, example_path], capture_output=True,
                            text=True, timeout=30)
    if result.returncode != 0:
        fail("the example oriel.ini does not parse: " + result.stderr.strip())
    uncommented = re.sub(r"^;(\[[a-z-]+\]|[a-z-]+ = )", r"\1", example, flags=re.M)
    with tempfile.NamedTemporaryFile("w", suffix=".ini") as f:
        f.write(uncommented)
        f.flush()
        result = subprocess.run([args.config_keys, f.name], capture_output=True,
                                text=True, timeout=30)
        if result.returncode != 0:
            fail("the example oriel.ini, uncommented, does not parse: " +
                 result.stderr.strip())
    for section, key in sorted(table - ini_keys(uncommented)):
        fail("the example oriel.ini does not show [%s] %s" % (section, key))
    print("oriel.ini: %d keys" % len(table))


def check_gateway(args, root):
    """oriel-gateway: --help and the getopt table against oriel-gateway.8, and
    the keys of gateway.ini's parser table against its CONFIGURATION."""
    page = read(os.path.join(root, "gateway", "oriel-gateway.8.scd"))
    listed = help_options(run(args.gateway, "--help"))
    source = read(os.path.join(root, "gateway", "gateway_config_args.c"))
    table = {"--" + name for name in re.findall(
        r'\{\s*"([a-z0-9-]+)"\s*,\s*(?:no|required|optional)_argument', source)}
    if len(table) < 10:
        fail("oriel-gateway: found only %d entries in its getopt table" % len(table))
    for option in sorted(table - listed):
        fail("oriel-gateway: --help does not list %s, which the getopt table has" % option)
    check_options("oriel-gateway", listed, "oriel-gateway.8", page)
    keys = set(re.findall(r'\{\s*"([a-z-]+)"\s*,\s*"([a-z-]+)"\s*,\s*set_',
                          read(os.path.join(root, "gateway", "gateway_config.c"))))
    if len(keys) < 10:
        fail("gateway.ini: found only %d keys in gateway_config.c" % len(keys))
    documented = page_config_keys(page)
    for section, key in sorted(keys - documented):
        fail("oriel-gateway.8: [%s] %s is missing" % (section, key))
    for section, key in sorted(documented - keys):
        fail("oriel-gateway.8: documents [%s] %s, which the parser does not know" %
             (section, key))
    print("oriel-gateway: %d options, %d keys" % (len(listed), len(keys)))


def check_every_program(args, root):
    """Every installed program has an scdoc page (NAME.SECTION.scd)."""
    with open(os.path.join(args.build_root, "meson-info", "intro-installed.json")) as f:
        installed = json.load(f).values()
    programs = {os.path.basename(path) for path in installed
                if os.path.basename(os.path.dirname(path)) in ("bin", "sbin", "libexec")}
    pages = {os.path.basename(path).split(".")[0]
             for path in glob.glob(os.path.join(root, "**", "*.scd"), recursive=True)}
    if "oriel" not in programs:
        fail("meson installs no oriel: %s" % sorted(programs))
    for program in sorted(programs - pages):
        fail("%s is installed but has no man page (an .scd file)" % program)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--source-root", required=True)
    parser.add_argument("--build-root", required=True)
    parser.add_argument("--oriel", required=True)
    parser.add_argument("--orielctl", required=True)
    parser.add_argument("--portal")
    parser.add_argument("--config-keys", required=True)
    parser.add_argument("--gateway")
    args = parser.parse_args()
    root = args.source_root
    check_oriel(args, root)
    check_orielctl(args, root)
    check_portal(args, root)
    check_config(args, root)
    if args.gateway:
        check_gateway(args, root)
    check_every_program(args, root)
    if failures:
        print("%d problems" % len(failures), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
