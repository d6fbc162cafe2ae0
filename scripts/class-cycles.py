#!/usr/bin/env python3
"""Class-level dependency cycles of the main code, as jdeps reads the bytecode.

A nested class counts as its top-level class; Javadoc does not count. Prints each cycle (a
strongly connected component of more than one top-level class), with EDGES=1 its edges too.

  ./mvnw -B -o -q compile -pl startup-telemetry-autoconfigure,startup-telemetry-fleet,startup-telemetry-kubernetes -am
  python3 scripts/class-cycles.py startup-telemetry-*/target/classes
"""
import os
import re
import subprocess
import sys
from collections import defaultdict

PREFIX = 'io.github.startuptelemetry.'
graph = defaultdict(set)
for classes in sys.argv[1:]:
    out = subprocess.run(['jdeps', '-filter:none', '-verbose:class', '-e', r'io\.github\.startuptelemetry.*', classes],
                         capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        match = re.match(r'\s+(\S+)\s+->\s+(\S+)', line)
        if match:
            a, b = (name.split('$')[0] for name in match.groups())
            graph[b]
            if a != b:
                graph[a].add(b)

# Tarjan's strongly connected components
index, low, stack, on_stack, cycles = {}, {}, [], set(), []
sys.setrecursionlimit(100000)


def visit(v):
    index[v] = low[v] = len(index)
    stack.append(v)
    on_stack.add(v)
    for w in graph[v]:
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on_stack:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        component = []
        while True:
            w = stack.pop()
            on_stack.discard(w)
            component.append(w)
            if w == v:
                break
        if len(component) > 1:
            cycles.append(sorted(component))


for v in list(graph):
    if v not in index:
        visit(v)
short = lambda name: name[len(PREFIX):] if name.startswith(PREFIX) else name
for cycle in sorted(cycles, key=len, reverse=True):
    print(len(cycle), ' '.join(map(short, cycle)))
    if os.environ.get('EDGES'):
        for a in cycle:
            for b in sorted(graph[a] & set(cycle)):
                print('   ', short(a), '->', short(b))
print(f'{len(cycles)} cycles among {len(graph)} classes')
sys.exit(1 if cycles else 0)
