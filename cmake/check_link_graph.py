#!/usr/bin/env python3
"""The link graph's rule: the headless layers (crowdlab_experiments, crowdlab_scene_core, and the
scenes' simulations, crowdlab_scenes) and the scene tests reach no ImGui, no OpenGL, no SDL through any
library they link. Reads
`cmake --graphviz` of a build folder.
Usage: check_link_graph.py BUILD_DIR"""
import os
import re
import subprocess
import sys
import tempfile

build = sys.argv[1]
with tempfile.TemporaryDirectory() as out:
    dot = os.path.join(out, "graph.dot")
    subprocess.run(["cmake", "--graphviz=" + dot, "."], cwd=build, check=True, stdout=subprocess.DEVNULL)
    text = open(dot, encoding="utf-8").read()
labels = dict(re.findall(r'"(node\d+)" \[ label = "([^"]+)"', text))
edges = {}
for a, b in re.findall(r'"(node\d+)" -> "(node\d+)"', text):
    edges.setdefault(a, set()).add(b)
node = {label: n for n, label in labels.items()}
forbidden = re.compile(r"imgui|IMGUI|OpenGL|glad|GLX|SDL2|crowdlab_render$|crowdlab_scene_windows$", re.I)
bad = 0
targets = ["crowdlab_experiments", "crowdlab_scene_core", "crowdlab_scenes"]
if "crowdlab_scene_tests" in node:  # a build with the tests
    targets.append("crowdlab_scene_tests")
for target in targets:
    if target not in node:
        print(f"link graph: no target {target}")
        bad = 1
        continue
    seen, stack, parent = set(), [node[target]], {}
    while stack:
        n = stack.pop()
        for m in edges.get(n, ()):
            if m not in seen:
                seen.add(m)
                parent[m] = n
                stack.append(m)
    for m in sorted(seen, key=lambda k: labels[k]):
        if forbidden.search(labels[m]):
            path, k = [labels[m]], m
            while k in parent:
                k = parent[k]
                path.append(labels[k])
            print("link graph: " + " -> ".join(reversed(path)))
            bad = 1
print("link graph: the headless layers link no UI or GL" if not bad else "link graph broken (see docs/design.md)")
sys.exit(bad)
