# Trims a recorded Gemini CLI home into a fixture: placeholder paths, no vendor prompt text.
import sys, json, os, hashlib, shutil
src, dst, realproj, fakeproj, realhome, fakehome = sys.argv[1:7]
newhash = hashlib.sha256(fakeproj.encode()).hexdigest()
oldhash = hashlib.sha256(realproj.encode()).hexdigest()
def fix(s):
    return s.replace(realproj, fakeproj).replace(realhome, fakehome).replace(oldhash, newhash)
def trim(obj):
    if isinstance(obj, dict):
        out = {}
        for k, v in obj.items():
            if k == 'text' and isinstance(v, str) and v.startswith('<session_context>'):
                v = '<session_context>\nThis is the Gemini CLI. [vendor context trimmed]\n- **Workspace Directories:**\n  - ' + fakeproj + '\n</session_context>'
            out[k] = trim(v)
        return out
    if isinstance(obj, list):
        return [trim(x) for x in obj]
    if isinstance(obj, str):
        return fix(obj)
    return obj
for root, dirs, files in os.walk(src):
    for f in files:
        p = os.path.join(root, f)
        rel = os.path.relpath(p, src)
        if not (f.endswith('.jsonl') or f in ('.project_root', 'projects.json')):
            continue
        q = os.path.join(dst, rel)
        os.makedirs(os.path.dirname(q), exist_ok=True)
        data = open(p).read()
        if f.endswith('.jsonl'):
            data = ''.join(json.dumps(trim(json.loads(l)), separators=(',', ':'), ensure_ascii=False) + '\n' for l in data.splitlines() if l.strip())
        elif f == 'projects.json':
            data = json.dumps(trim(json.loads(data)), indent=2) 
        else:
            data = fix(data)
        open(q, 'w').write(data)
