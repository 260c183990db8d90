#!/usr/bin/env python3
"""The documentation against the program, so that neither can change without the other.

    check_docs.py CROWDLAB SOURCE_DIR keys|commands|links

keys      README.md's tables against the program: the scene table's keys 1..N against
          `crowdlab --list-scenes`, the scene-key rows' scene names, and every key of the F1 help
          (its list in src/app/hud.cpp) in the keys table.
commands  every `crowdlab ...` command line in README.md and docs/*.md goes through the program's
          argument parser without doing the work (CROWDLAB_PARSE_ONLY=1) and must exit 0. Exits 77
          (CTest's skip) when the binary does not honour CROWDLAB_PARSE_ONLY.
links     every link to a file of the repository in those files resolves.
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

# Pages other branches add (the lesson plan, `crowdlab fps`, the crowd experiments, the rules for
# output files): a link to one of them only warns while it is missing. Empty this once they are in.
PENDING = {"docs/lecture.md", "docs/fps.md", "docs/crowds.md", "docs/output-files.md"}


def doc_files(source):
    files = [os.path.join(source, "README.md")]
    docs = os.path.join(source, "docs")
    files += sorted(os.path.join(docs, f) for f in os.listdir(docs) if f.endswith(".md"))
    return files


def table_rows(text, header):
    """The rows (lists of cells) of the markdown table whose header line starts with `header`."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.strip().startswith(header):
            rows = []
            for row in lines[i + 2:]:
                if not row.strip().startswith("|"):
                    break
                rows.append([c.strip() for c in row.strip().strip("|").split("|")])
            return rows
    return None


def check_keys(exe, source):
    failures = []
    readme = open(os.path.join(source, "README.md"), encoding="utf-8").read()
    scenes = subprocess.run([exe, "--list-scenes"], capture_output=True, text=True, timeout=60).stdout.split()
    if not scenes:
        return ["`crowdlab --list-scenes` printed no scenes"]
    rows = table_rows(readme, "| key | scene |")
    if rows is None:
        failures.append("README.md has no scene table (| key | scene | what it shows |)")
    else:
        keys = [r[0] for r in rows]
        want = [str(i + 1) for i in range(len(scenes))]
        if keys != want:
            failures.append(f"README.md's scene table has keys {keys}; `crowdlab --list-scenes` names {len(scenes)} "
                            f"scenes ({', '.join(scenes)}), so keys {want}")
    rows = table_rows(readme, "| scene | key or mouse |")
    if rows is None:
        failures.append("README.md has no table of the scenes' keys (| scene | key or mouse | action |)")
    else:
        for r in rows:
            if r[0] not in scenes:
                failures.append(f"README.md's scene keys name the scene {r[0]!r}, which `crowdlab --list-scenes` does not list")
    rows = table_rows(readme, "| key | action |")
    if rows is None:
        return failures + ["README.md has no keys table (| key | action |)"]
    documented = {r[0].replace("`", "") for r in rows}
    hud = open(os.path.join(source, "src", "app", "hud.cpp"), encoding="utf-8").read()
    block = re.search(r"const char\* keys\[\]\[2\] = \{(.*?)\n\s*\};", hud, re.S)
    if not block:
        return failures + ["src/app/hud.cpp: the F1 help's key list (const char* keys[][2]) was not found"]
    help_keys = re.findall(r'\{\s*"([^"]+)"\s*,', block.group(1))
    if len(help_keys) < 10:
        failures.append(f"src/app/hud.cpp: only {len(help_keys)} keys read from the F1 help's list")
    for key in help_keys:
        if key not in documented:
            failures.append(f"the F1 help has the key {key!r}, which README.md's keys table lacks")
    return failures


def is_placeholder(token):
    """NAME, FILE.png, A.csv, NAME=FROM:TO:STEP: words a reader replaces, not ones to run."""
    if "=" in token:
        value = token.split("=", 1)[1]
        return any(re.fullmatch(r"[A-Z][A-Z0-9_]*", p) for p in re.split(r"[:,;.]", value) if p)
    return bool(re.fullmatch(r"[A-Z][A-Z0-9_]*", token.split(".")[0]))


def command_lines(path):
    """(line number, argument list) of every runnable `crowdlab ...` line in code blocks and code spans."""
    found = []
    fenced = False
    for n, line in enumerate(open(path, encoding="utf-8").read().splitlines(), 1):
        if line.strip().startswith("```"):
            fenced = not fenced
            continue
        candidates = []
        if fenced or line.startswith("    "):
            candidates.append(line.strip())
        candidates += re.findall(r"`(crowdlab [^`]+)`", line)
        for c in candidates:
            if not c.startswith("crowdlab ") and c != "crowdlab":
                continue
            c = re.split(r"\s+#\s", c)[0]  # a comment after the command
            # Synopses and shell plumbing: [optional], a|b, ..., pipes, globs, GNU parallel's {}.
            if re.search(r"[\[\]|{}*<>$]|\.\.\.|&&", c):
                continue
            try:
                args = shlex.split(c)[1:]
            except ValueError:
                continue
            if any(is_placeholder(a) for a in args):
                continue
            if args and not (args[0].startswith("--") or re.fullmatch(r"[a-z]+", args[0])):
                continue  # prose that starts with the name (a window's title), not a command

            found.append((n, args))
    return found


def check_commands(exe, source):
    env = dict(os.environ, CROWDLAB_PARSE_ONLY="1")
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    try:
        probe = subprocess.run([exe, "--frames", "1"], env=env, capture_output=True, text=True, timeout=20)
        honoured = probe.returncode == 0
    except subprocess.TimeoutExpired:
        honoured = False
    if not honoured:
        print("SKIPPED: this crowdlab does not honour CROWDLAB_PARSE_ONLY=1 "
              "(`CROWDLAB_PARSE_ONLY=1 crowdlab --frames 1` without a display did not exit 0 at once)")
        sys.exit(77)
    failures, count = [], 0
    with tempfile.TemporaryDirectory(prefix="crowdlab-docs-") as work:  # nothing lands in the tree
        for path in doc_files(source):
            rel = os.path.relpath(path, source)
            for n, args in command_lines(path):
                count += 1
                try:
                    r = subprocess.run([exe] + args, env=env, cwd=work, capture_output=True, text=True, timeout=30)
                    ok, why = r.returncode == 0, (r.stderr.strip() or r.stdout.strip()).splitlines()[:1]
                except subprocess.TimeoutExpired:
                    ok, why = False, ["did not return within 30 s: the work ran instead of the parser alone"]
                if not ok:
                    failures.append(f"{rel}:{n}: crowdlab {shlex.join(args)}\n    -> {' '.join(why) or 'exit code ' + str(r.returncode)}")
    print(f"{count} documented command lines parsed")
    if count < 20:
        failures.append(f"only {count} command lines found in README.md and docs/*.md: the extraction is broken")
    return failures


def check_links(source):
    failures = []
    for path in doc_files(source):
        rel = os.path.relpath(path, source)
        text = open(path, encoding="utf-8").read()
        text = re.sub(r"```.*?```", "", text, flags=re.S)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue  # a web address or an anchor in the same page
            file_part = target.split("#", 1)[0]
            resolved = os.path.normpath(os.path.join(os.path.dirname(path), file_part))
            repo_rel = os.path.relpath(resolved, source)
            if os.path.exists(resolved):
                continue
            if repo_rel in PENDING:
                print(f"pending: {rel} links to {target}, which another branch adds")
                continue
            failures.append(f"{rel}: the link {target} points to {repo_rel}, which does not exist")
    return failures


def main():
    if len(sys.argv) != 4 or sys.argv[3] not in ("keys", "commands", "links"):
        print(__doc__)
        return 2
    exe, source, part = sys.argv[1], sys.argv[2], sys.argv[3]
    if part == "keys":
        failures = check_keys(exe, source)
    elif part == "commands":
        failures = check_commands(exe, source)
    else:
        failures = check_links(source)
    for f in failures:
        print("FAIL:", f)
    if not failures:
        print(f"docs {part}: ok")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
