#!/usr/bin/env python3
# callgraph.py [TREE]: the static file-level call graph of each program
# (gcc -fcallgraph-info: an edge for every direct call from a function of
# one .c file to one defined in another), and the call circles in it:
# sets of .c files that reach each other through direct calls.  Calls
# through function pointers (tables of operations, registered handlers)
# are not edges, which is the point of them.  TREE (default: this tree)
# must be built (`make`: it needs build/proto).  With PATH_FROM=a.c and
# PATH_TO=b.c in the environment it also lists the files on any call
# path from one to the other.  Prints one line per program and ends with
# "files on a call circle: N"; exits 1 when N > 0.
#
#   python3 tools/callgraph.py
import subprocess, sys, os, re, glob
import tempfile, shutil, concurrent.futures
tree = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..'))
tmp = tempfile.mkdtemp(prefix='callgraph.')
progs = {'controller': ['controller'], 'agent': ['agent'], 'generator': ['generator'],
         'router': ['router'], 'link': ['link', 'router/link'], 'lib': ['lib']}
# *.bpf.c are BPF programs (router/bpf/): built for the BPF target, they
# call no host file and the host compiler cannot read their map macros.
srcs = [f for d in ['agent', 'controller', 'generator', 'router', 'link', 'lib']
        for f in glob.glob(os.path.join(tree, d, '**', '*.c'), recursive=True)
        if not f.endswith('.bpf.c')]
defs, edges = {}, []
inc = ['-I' + tree, '-I' + tree + '/lib', '-I' + tree + '/build']
def compile_ci(s):
    """gcc -fcallgraph-info on one file: (its path in the tree, the .ci
    file or None, cc's complaint)."""
    rel = os.path.relpath(s, tree)
    ci = os.path.join(tmp, rel.replace('/', '_'))
    r = subprocess.run(['cc'] + inc + ['-std=c11', '-D_GNU_SOURCE', '-O0', '-fcallgraph-info',
        '-c', s, '-o', ci + '.o', '-dumpbase', ci + '.c'], cwd=tree, capture_output=True, text=True)
    return rel, (None if r.returncode else ci + '.c.ci'), r.stderr[:300]
# One compiler per core: the files are independent, and make check waits.
with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
    compiled = list(pool.map(compile_ci, srcs))
for rel, cifile, complaint in compiled:
    if cifile is None: print('cc failed', rel, complaint); continue
    for line in open(cifile):
        m = re.match(r'node: \{ title: "([^"]+)" label: "([^\\]+)\\n([^:]+):', line)
        if m and 'shape' not in line:
            name = m.group(1).split(':')[-1]
            if ':' not in m.group(1): defs[name] = rel
        m = re.match(r'edge: \{ sourcename: "([^"]+)" targetname: "([^"]+)"', line)
        if m: edges.append((rel, m.group(2).split(':')[-1]))
g = {}
for f, t in edges:
    if t in defs and defs[t] != f: g.setdefault(f, set()).add(defs[t])
def sccs(nodes):
    idx, low, on, st, out, c = {}, {}, set(), [], [], [0]
    def sc(v):
        idx[v] = low[v] = c[0]; c[0] += 1; st.append(v); on.add(v)
        for w in g.get(v, ()):
            if w not in nodes: continue
            if w not in idx: sc(w); low[v] = min(low[v], low[w])
            elif w in on: low[v] = min(low[v], idx[w])
        if low[v] == idx[v]:
            comp = []
            while True:
                w = st.pop(); on.discard(w); comp.append(w)
                if w == v: break
            if len(comp) > 1: out.append(sorted(comp))
    for v in sorted(nodes):
        if v not in idx: sc(v)
    return out
allf = {os.path.relpath(s, tree) for s in srcs}
total = 0
for p, dirs in progs.items():
    nodes = {f for f in allf if any(f.startswith(d + '/') for d in dirs)}
    if p == 'router': nodes = {f for f in nodes if not f.startswith('router/link/')}
    cs = sccs(nodes)
    total += sum(len(c) for c in cs)
    print('%-10s %3d files, %d circles: %s' % (p, len(nodes), len(cs), '; '.join(' '.join(os.path.basename(x) for x in c) for c in cs)))
print('files on a call circle:', total)
# Files on any direct-call path from SRC to DST (env PATH_FROM, PATH_TO).
src, dst = os.environ.get('PATH_FROM'), os.environ.get('PATH_TO')
if src and dst:
    fwd = set(); st = [src]
    while st:
        v = st.pop()
        if v in fwd: continue
        fwd.add(v); st.extend(g.get(v, ()))
    rg = {}
    for a, bs in g.items():
        for b in bs: rg.setdefault(b, set()).add(a)
    bwd = set(); st = [dst]
    while st:
        v = st.pop()
        if v in bwd: continue
        bwd.add(v); st.extend(rg.get(v, ()))
    on = sorted(fwd & bwd)
    print('files on a call path %s -> %s: %d: %s' % (src, dst, len(on), ' '.join(on)))
    print('files reachable from %s: %d' % (src, len(fwd)))

shutil.rmtree(tmp, ignore_errors=True)
sys.exit(1 if total else 0)
