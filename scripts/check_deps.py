#!/usr/bin/env python3
"""Proves that scripts/install_deps.sh installs everything the configured builds use.

A machine that happens to have a package installed builds fine without it being in
the install list; a fresh Debian 12 does not (it once failed at CMake because
Debian's oneDNN config needs OpenCL's dev package). So this check looks at what the
builds really resolved, not at what the machine has:

  * every absolute header path in the compilers' dependency files (*.o.d),
  * every file, library and package-config folder recorded in CMakeCache.txt
    (this includes what the oneDNN config's own find_package(OpenCL) resolved),
  * every library on the link lines (link.txt) and every shared library the built
    programs load (ldd),

and finds the Debian package that owns each path (dpkg's file lists, with the
/lib -> /usr/lib style aliases of a merged-/usr system resolved both ways). Each
owner must be in the install list, in the recursive Depends/Pre-Depends closure of
a package that the list names, or be Priority: required / Essential (what a
minimal Debian 12 image already has). Anything else fails the check, naming the
missing package and a path that needs it.

Usage: scripts/check_deps.py [--packages P1,P2,...] BUILD_DIR [BUILD_DIR ...]
  --packages replaces the install list (default: `scripts/install_deps.sh --list`);
  the test command uses it to prove the check fails when a package is left out.
"""

from __future__ import annotations

import argparse
import glob
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DPKG_INFO = Path("/var/lib/dpkg/info")
DPKG_STATUS = Path("/var/lib/dpkg/status")
# Merged-/usr aliases: dpkg may record either spelling of the same file.
ALIASES = [("/lib/", "/usr/lib/"), ("/lib64/", "/usr/lib64/"), ("/bin/", "/usr/bin/"),
           ("/sbin/", "/usr/sbin/")]


def install_list() -> list[str]:
    out = subprocess.run([str(ROOT / "scripts" / "install_deps.sh"), "--list"],
                         check=True, capture_output=True, text=True).stdout
    return out.split()


def read_status() -> dict[str, dict[str, str]]:
    """Installed packages from dpkg's status file: name -> fields."""
    packages: dict[str, dict[str, str]] = {}
    for block in DPKG_STATUS.read_text(errors="replace").split("\n\n"):
        fields: dict[str, str] = {}
        key = None
        for line in block.splitlines():
            if line.startswith((" ", "\t")) and key:
                fields[key] += "\n" + line.strip()
            elif ":" in line:
                key, _, value = line.partition(":")
                fields[key] = value.strip()
        name = fields.get("Package")
        if name and "install ok installed" in fields.get("Status", ""):
            packages[name] = fields
    return packages


def providers(status: dict[str, dict[str, str]]) -> dict[str, list[str]]:
    """Virtual package name -> installed packages that provide it."""
    provided: dict[str, list[str]] = {}
    for name, fields in status.items():
        for item in split_relation(fields.get("Provides", "")):
            provided.setdefault(item[0], []).append(name)
    return provided


def split_relation(text: str) -> list[list[str]]:
    """'a (>= 1), b | c:any' -> [['a'], ['b', 'c']] (alternatives per entry)."""
    groups = []
    for entry in text.split(","):
        names = []
        for alt in entry.split("|"):
            alt = re.sub(r"\(.*?\)|\[.*?\]|<.*?>", "", alt).strip()
            if alt:
                names.append(alt.split(":")[0])
        if names:
            groups.append(names)
    return groups


def closure(roots: list[str], status, provided) -> set[str]:
    """Packages that installing `roots` (without recommends) brings in."""
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        fields = status.get(name)
        if not fields:
            continue
        for key in ("Depends", "Pre-Depends"):
            for alternatives in split_relation(fields.get(key, "")):
                # apt takes an alternative that is already satisfied, else the first
                # one; here: the first that is installed (real or virtual).
                chosen = None
                for alt in alternatives:
                    if alt in status:
                        chosen = [alt]
                    elif alt in provided:
                        chosen = provided[alt]
                    if chosen:
                        break
                todo.extend(chosen or alternatives[:1])
    return seen


def file_owners() -> dict[str, set[str]]:
    owners: dict[str, set[str]] = {}
    for lst in DPKG_INFO.glob("*.list"):
        package = lst.stem.split(":")[0]
        for line in lst.read_text(errors="replace").splitlines():
            owners.setdefault(line, set()).add(package)
    return owners


def spellings(path: str) -> list[str]:
    out = [path, os.path.realpath(path)]
    for p in list(out):
        for short, long in ALIASES:
            if p.startswith(short):
                out.append(long + p[len(short):])
            elif p.startswith(long):
                out.append(short + p[len(long):])
    return list(dict.fromkeys(out))


def owner_of(path: str, owners) -> set[str]:
    for p in spellings(path):
        if p in owners:
            return owners[p]
    return set()


def used_paths(build: Path) -> dict[str, str]:
    """Absolute paths outside the repository that `build` used -> why."""
    used: dict[str, str] = {}
    repo = str(ROOT)

    def add(path: str, why: str):
        path = path.strip()
        if not path.startswith("/") or path.startswith(repo) or path.startswith(str(build)):
            return
        if path.startswith(("/proc", "/tmp", "/dev")):
            return
        used.setdefault(os.path.normpath(path), why)

    for dep in build.rglob("*.o.d"):
        text = dep.read_text(errors="replace").replace("\\\n", " ")
        for token in text.split():
            if token.endswith(":"):
                continue
            add(token, f"header of {dep.relative_to(build)}")
    cache = build / "CMakeCache.txt"
    if cache.exists():
        for line in cache.read_text(errors="replace").splitlines():
            m = re.match(r"([^:#/][^:]*):(\w+)=(.*)", line)
            if not m:
                continue
            key, kind, value = m.groups()
            if key.startswith("CMAKE_") or kind == "STATIC":
                continue
            for item in value.split(";"):
                item = item.strip()
                if not item.startswith("/") or not os.path.exists(item):
                    continue
                if os.path.isdir(item):
                    # A package's config folder: its files name the package; a shared
                    # include folder (/usr/include) names nothing by itself.
                    if key.endswith("_DIR"):
                        for f in sorted(glob.glob(os.path.join(item, "*.cmake")))[:1]:
                            add(f, f"CMakeCache {key}")
                    continue
                add(item, f"CMakeCache {key}")
    for link in build.rglob("link.txt"):
        for token in link.read_text(errors="replace").split():
            if re.search(r"\.(so(\.\d+)*|a)$", token) and token.startswith("/"):
                add(token, f"linked by {link.parent.relative_to(build)}")
    for f in build.rglob("*"):
        if f.is_file() and os.access(f, os.X_OK) and (f.suffix in ("", ".so") or ".so." in f.name):
            try:
                with open(f, "rb") as fh:
                    if fh.read(4) != b"\x7fELF":
                        continue
            except OSError:
                continue
            out = subprocess.run(["ldd", str(f)], capture_output=True, text=True).stdout
            for m in re.finditer(r"=>\s+(/\S+)", out):
                add(m.group(1), f"loaded by {f.relative_to(build)}")
    return used


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--packages", help="comma-separated install list to check instead")
    parser.add_argument("builds", nargs="+", type=Path)
    args = parser.parse_args()

    listed = args.packages.split(",") if args.packages else install_list()
    status = read_status()
    provided = providers(status)
    base = {n for n, f in status.items()
            if f.get("Priority") == "required" or f.get("Essential") == "yes"}
    allowed = closure(listed + sorted(base), status, provided)
    owners = file_owners()

    missing: dict[str, tuple[str, str]] = {}
    unowned: dict[str, str] = {}
    checked = 0
    for build in args.builds:
        if not (build / "CMakeCache.txt").exists():
            print(f"check_deps: {build} is not a configured build folder", file=sys.stderr)
            return 2
        for path, why in sorted(used_paths(build.resolve()).items()):
            checked += 1
            pkgs = owner_of(path, owners)
            if not pkgs:
                unowned.setdefault(path, why)  # from outside Debian: a fresh machine lacks it
                continue
            if pkgs & allowed:
                continue
            for p in sorted(pkgs):
                missing.setdefault(p, (path, why))
    for p, (path, why) in sorted(missing.items()):
        print(f"check_deps: package '{p}' is needed but not installed by "
              f"scripts/install_deps.sh: {path} ({why})", file=sys.stderr)
    for path, why in sorted(unowned.items()):
        print(f"check_deps: {path} ({why}) belongs to no Debian package: a fresh machine "
              f"does not have it", file=sys.stderr)
    if missing or unowned:
        return 1
    print(f"check_deps: all {checked} paths used by {len(args.builds)} build(s) belong to the "
          f"install list's {len(allowed)}-package closure")
    return 0


if __name__ == "__main__":
    sys.exit(main())
