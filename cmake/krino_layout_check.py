#!/usr/bin/env python3
"""The dependency rule of docs/architecture.md and the layers of core, checked on the real #includes.

Reads every #include of sdk/, core/, plugins/, apps/ and testing/, resolves it to a file of the tree where it
can (relative to the including file, then the include roots), and fails naming the file and line of
each include that crosses a forbidden edge, and each cycle between core components:

  sdk              -> sdk
  sdk/examples     -> sdk, testing/include, itself (what is installed: third-party code)
  plugins/support  -> sdk, plugins/support
  plugins/<kind>/<name> -> sdk, plugins/support, itself
  core/<component> -> sdk, itself, the components its library links (core/CMakeLists.txt)
  apps             -> sdk, core, apps
  testing/src      -> sdk, core, testing      (libkrino-testing: core compiled into a library)
  testing/include  -> testing                 (its installed headers: nothing of core or the SDK)

The declared graph comes from the build tree (--layers, written by krino_record_core_layers() in
cmake/KrinoLayoutCheck.cmake), so the test checks the graph CMake links with, not a copy of it.
Python 3 standard library only. Exit status 0 when the tree keeps the rule, 1 when it does not,
2 when the check itself cannot run.
"""
import argparse
import json
import os
import re
import sys

SOURCE_SUFFIXES = (".h", ".hpp", ".c", ".cc", ".cpp", ".inl", ".ipp")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
CHECKED_TREES = ("sdk", "core", "plugins", "apps", "testing")


def classify(rel):
    """The area a repository path belongs to: ('sdk',), ('core', component or None), ('support',),
    ('plugin', 'kind/name'), ('apps',), ('testing', 'include' or 'src'), or None for a path outside the
    checked trees."""
    parts = rel.split("/")
    top = parts[0]
    if top == "sdk":
        if len(parts) >= 3 and parts[1] == "examples":
            return ("example", parts[2])
        return ("sdk",)
    if top == "core":
        if len(parts) >= 3 and parts[1] == "src":
            return ("core", parts[2] if len(parts) > 3 else None)
        if len(parts) >= 5 and parts[1:4] == ["include", "krino", "core"]:
            return ("core", parts[4] if len(parts) > 5 else None)
        return ("core", None)
    if top == "plugins":
        if len(parts) >= 2 and parts[1] == "support":
            return ("support",)
        if len(parts) >= 4:
            return ("plugin", parts[1] + "/" + parts[2])
        return ("plugin", None)
    if top == "apps":
        return ("apps",)
    if top == "testing":
        return ("testing", "include" if len(parts) >= 2 and parts[1] == "include" else "src")
    return None


def describe(area):
    kind = area[0]
    if kind == "core":
        return "core/" + area[1] if area[1] else "core"
    if kind == "plugin":
        return "plugins/" + area[1] if area[1] else "plugins"
    if kind == "support":
        return "plugins/support"
    if kind == "testing":
        return "testing/" + area[1]
    if kind == "example":
        return "sdk/examples/" + area[1]
    return kind


class Tree:
    def __init__(self, root):
        self.root = root
        self.files = []
        for tree in CHECKED_TREES:
            for directory, subdirectories, names in os.walk(os.path.join(root, tree)):
                subdirectories[:] = sorted(d for d in subdirectories if not d.startswith(".") and d != "build")
                for name in sorted(names):
                    if name.endswith(SOURCE_SUFFIXES):
                        self.files.append(os.path.relpath(os.path.join(directory, name), root).replace(os.sep, "/"))
        # Where <...> and "..." includes are looked up, besides the including file's folder.
        self.roots = ["sdk/include", "core/include", "testing/include"]
        support = os.path.join(root, "plugins", "support")
        for directory, subdirectories, _ in os.walk(support):
            subdirectories.sort()
            for d in subdirectories:
                if d in ("include", "src"):
                    self.roots.append(os.path.relpath(os.path.join(directory, d), root).replace(os.sep, "/"))
        if os.path.isdir(support):
            self.roots.append("plugins/support")
        # Each plugin's own include folders (its logic library exports src/ or the folder itself).
        self.plugin_roots = {}
        plugins = os.path.join(root, "plugins")
        if os.path.isdir(plugins):
            for kind in sorted(os.listdir(plugins)):
                kind_dir = os.path.join(plugins, kind)
                if kind == "support" or not os.path.isdir(kind_dir):
                    continue
                for name in sorted(os.listdir(kind_dir)):
                    unit = "plugins/" + kind + "/" + name
                    if os.path.isdir(os.path.join(root, unit)):
                        self.plugin_roots[kind + "/" + name] = [unit + "/include", unit + "/src", unit]

    def exists(self, rel):
        return os.path.isfile(os.path.join(self.root, rel))

    def resolve(self, including, quote, target):
        """The repository path an include names, or None for one outside the tree (system, Boost,
        a generated header)."""
        candidates = []
        if quote == '"':
            candidates.append(os.path.normpath(os.path.join(os.path.dirname(including), target)).replace(os.sep, "/"))
        candidates += [root + "/" + target for root in self.roots]
        area = classify(including)
        if area and area[0] == "plugin" and area[1] in self.plugin_roots:
            candidates += [root + "/" + target for root in self.plugin_roots[area[1]]]
        for candidate in candidates:
            if not candidate.startswith("..") and self.exists(candidate):
                return candidate
        # Another plugin's header, found through an include path that plugin exports.
        if quote == '"':
            for unit, roots in self.plugin_roots.items():
                if area and area[0] == "plugin" and area[1] == unit:
                    continue
                for root in roots:
                    if self.exists(root + "/" + target):
                        return root + "/" + target
        return None


def area_of_unresolved(target):
    """Generated headers (krino/core/version.hpp) still belong somewhere."""
    match = re.match(r"krino/core/([^/]+)/", target)
    if match:
        return ("core", match.group(1))
    if target.startswith("krino/core/"):
        return ("core", None)
    return None


def read_layers(path):
    with open(path, encoding="utf-8") as f:
        document = json.load(f)
    order = [name for name, _ in document["components"]]
    return order, {name: list(deps) for name, deps in document["components"]}


def find_cycle(graph, members):
    """One cycle through the strongly connected `members`, as a list of nodes [a, b, ..., a]."""
    start = sorted(members)[0]
    path, on_path = [start], {start}

    def walk(node):
        for nxt in sorted(graph.get(node, ())):
            if nxt not in members:
                continue
            if nxt == start:
                return path + [start]
            if nxt in on_path:
                continue
            path.append(nxt)
            on_path.add(nxt)
            found = walk(nxt)
            if found:
                return found
            path.pop()
            on_path.discard(nxt)
        return None

    return walk(start)


def strongly_connected(graph):
    """Tarjan's components with more than one node (a self-edge is not a cycle here)."""
    index, low, stack, on_stack, result, counter = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            members = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                members.add(w)
                if w == v:
                    break
            if len(members) > 1:
                result.append(members)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source-dir", required=True)
    parser.add_argument("--layers", required=True, help="krino_core_layers.json from the build tree")
    args = parser.parse_args()

    try:
        order, declared = read_layers(args.layers)
    except (OSError, ValueError, KeyError) as error:
        print(f"core_layers: cannot read the declared layers {args.layers}: {error}", file=sys.stderr)
        return 2

    tree = Tree(os.path.abspath(args.source_dir))
    problems = []
    edges = {}  # (from, to) -> first "file:line: #include ..." that makes it
    checked = 0

    # Every folder of core is a component with a library.
    for base in ("core/src", "core/include/krino/core"):
        full = os.path.join(tree.root, base)
        if os.path.isdir(full):
            for name in sorted(os.listdir(full)):
                if os.path.isdir(os.path.join(full, name)) and name not in declared:
                    problems.append(f"{base}/{name}/: a core folder with no library; declare it with "
                                    f"krino_core_component({name} DEPENDS ...) in core/CMakeLists.txt")

    for rel in tree.files:
        source = classify(rel)
        if source is None or (source[0] == "core" and source[1] is None):
            continue
        with open(os.path.join(tree.root, rel), encoding="utf-8", errors="replace") as f:
            lines = f.readlines()
        for number, line in enumerate(lines, 1):
            match = INCLUDE.match(line)
            if not match:
                continue
            checked += 1
            quote, target = match.groups()
            resolved = tree.resolve(rel, quote, target)
            destination = classify(resolved) if resolved else area_of_unresolved(target)
            if destination is None:
                continue
            where = f"{rel}:{number}: {line.strip()}"
            kind = source[0]
            forbidden = None
            if kind == "sdk":
                if destination[0] != "sdk":
                    forbidden = f"the SDK must not include {describe(destination)}"
            elif kind == "example":
                if destination[0] != "sdk" and destination != ("testing", "include") and destination != source:
                    forbidden = (f"{describe(source)} includes {describe(destination)}; an example uses only what is "
                                 f"installed: the SDK and libkrino-testing's headers")
            elif kind == "support":
                if destination[0] not in ("sdk", "support"):
                    forbidden = f"plugins/support includes only the SDK, not {describe(destination)}"
            elif kind == "plugin":
                if destination[0] not in ("sdk", "support") and destination != source:
                    forbidden = (f"{describe(source)} includes {describe(destination)}; a plugin uses only the SDK "
                                 f"and plugins/support")
            elif kind == "apps":
                if destination[0] not in ("sdk", "core", "apps"):
                    forbidden = f"apps include only the SDK and core, not {describe(destination)}"
            elif kind == "testing" and source[1] == "include":
                if destination[0] != "testing":
                    forbidden = (f"testing/include includes {describe(destination)}; libkrino-testing's installed "
                                 f"headers include only each other, as core and the SDK are not installed with them")
            elif kind == "testing":
                if destination[0] not in ("sdk", "core", "testing"):
                    forbidden = f"testing includes only the SDK, core and itself, not {describe(destination)}"
            elif kind == "core":
                if destination[0] not in ("sdk", "core"):
                    forbidden = f"core must not include {describe(destination)}"
                elif destination[0] == "core" and destination[1] and destination[1] != source[1]:
                    edges.setdefault((source[1], destination[1]), where)
                    if source[1] in declared and destination[1] not in declared[source[1]]:
                        deps = " ".join(declared[source[1]]) or "none"
                        forbidden = (f"core/{source[1]} includes core/{destination[1]}, which is not among its declared "
                                     f"dependencies ({deps}) in core/CMakeLists.txt")
            if forbidden:
                problems.append(f"{where}\n    {forbidden}")

    include_graph = {}
    for a, b in edges:
        include_graph.setdefault(a, set()).add(b)
    for members in strongly_connected(include_graph):
        cycle = find_cycle(include_graph, members)
        text = [f"cycle between core components: {' -> '.join(cycle)}"]
        for a, b in zip(cycle, cycle[1:]):
            text.append(f"    {a} -> {b}: {edges[(a, b)]}")
        problems.append("\n".join(text))
    for members in strongly_connected({k: set(v) for k, v in declared.items()}):
        cycle = find_cycle({k: set(v) for k, v in declared.items()}, members)
        problems.append(f"cycle in the declared layers (core/CMakeLists.txt): {' -> '.join(cycle)}")
    position = {name: i for i, name in enumerate(order)}
    for name, deps in declared.items():
        for dep in deps:
            if dep in position and position[dep] > position[name]:
                problems.append(f"core/CMakeLists.txt: {name} depends on {dep}, which is declared after it "
                                f"(declare components bottom to top)")

    if problems:
        print(f"core_layers: {len(problems)} problem(s) in {len(tree.files)} files\n", file=sys.stderr)
        for problem in problems:
            print(problem + "\n", file=sys.stderr)
        return 1
    print(f"core_layers: {checked} includes in {len(tree.files)} files keep the dependency rule; core layers, bottom up:")
    for name in order:
        print(f"  {name:<11} -> {' '.join(declared[name]) or '(sdk only)'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
