#!/usr/bin/env python3
"""page_check.py opens the scenes the program lists, not a list of its own.

    test_scene_list.py CROWDLAB

Checks that page_check's scenes equal `CROWDLAB --list-scenes`, and that a program listing other
names (a stand-in script) changes them: a literal list in page_check.py fails here.
"""
import os, stat, subprocess, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
page_check = os.path.join(here, "page_check.py")


def page_check_scenes(program):
    out = subprocess.run([sys.executable, page_check, "--print-scenes", "--program", program],
                         capture_output=True, text=True, check=True).stdout
    return out.strip()


def main():
    program = sys.argv[1]
    listed = subprocess.run([program, "--list-scenes"], capture_output=True, text=True, check=True).stdout.split()
    failures = []
    if len(listed) < 7:
        failures.append(f"crowdlab --list-scenes names {len(listed)} scenes: {listed}")
    if page_check_scenes(program) != ",".join(listed):
        failures.append(f"page_check opens {page_check_scenes(program)!r}, the program lists {','.join(listed)!r}")
    with tempfile.TemporaryDirectory() as tmp:
        stand_in = os.path.join(tmp, "crowdlab")
        with open(stand_in, "w") as f:
            f.write("#!/bin/sh\nprintf 'alpha\\nbeta\\n'\n")
        os.chmod(stand_in, stat.S_IRWXU)
        if page_check_scenes(stand_in) != "alpha,beta":
            failures.append(f"page_check ignores the program's list: {page_check_scenes(stand_in)!r}")
    for f in failures:
        print("FAIL:", f)
    print("page_check's scenes:", ",".join(listed))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
