#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Checks rubble's layering (docs/architecture.md): every source and header of a layer includes
only headers of its own layer and of the layers below it, never by a relative path into another
folder, and every folder of src/ is a layer.

    scripts/check_layers.py REPO_ROOT LAYER...      (the layers bottom first, as
                                                     src/CMakeLists.txt's RUBBLE_LAYERS)

A layer is a folder: src/NAME with its public headers in include/rubble/NAME (gpu/ for the
layer gpu). Prints one line per violation, naming the file, the line and the included header,
and exits 1 when there is any."""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def layer_files(root, layer):
    """The files of a layer: its sources (src/NAME or gpu/) and its public headers."""
    dirs = [os.path.join(root, "gpu" if layer == "gpu" else os.path.join("src", layer)),
            os.path.join(root, "include", "rubble", layer)]
    for d in dirs:
        for base, _, names in os.walk(d):
            for name in sorted(names):
                if name.endswith((".cpp", ".hpp", ".cu", ".cuh")):
                    yield os.path.join(base, name)


def main():
    root, layers = sys.argv[1], sys.argv[2:]
    rank = {name: i for i, name in enumerate(layers)}
    problems = []
    for d in sorted(os.listdir(os.path.join(root, "src"))):
        if os.path.isdir(os.path.join(root, "src", d)) and d not in rank:
            problems.append(f"src/{d}: a folder that is not a layer (add it to RUBBLE_LAYERS)")
    for d in sorted(os.listdir(os.path.join(root, "include", "rubble"))):
        if os.path.isdir(os.path.join(root, "include", "rubble", d)) and d not in rank:
            problems.append(f"include/rubble/{d}: a folder that is not a layer")
    for layer in layers:
        for path in layer_files(root, layer):
            rel = os.path.relpath(path, root)
            with open(path, encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    header = m.group(1)
                    where = f"{rel}:{number}: #include \"{header}\""
                    if header.startswith("rubble/"):
                        parts = header.split("/")
                        if len(parts) == 2:  # rubble/version.hpp, generated at configure time
                            continue
                        other = parts[1]
                        if other not in rank:
                            problems.append(f"{where}: '{other}' is not a layer")
                        elif rank[other] > rank[layer]:
                            problems.append(f"{where}: layer '{layer}' includes the higher "
                                            f"layer '{other}'")
                    elif "/" in header:
                        problems.append(f"{where}: a relative path into another folder; "
                                        "include a public header as \"rubble/LAYER/...\"")
                    elif not os.path.exists(os.path.join(os.path.dirname(path), header)):
                        problems.append(f"{where}: not a header of this folder")
    for p in problems:
        print(p)
    print(f"layers: {len(layers)} checked, {len(problems)} violations")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
