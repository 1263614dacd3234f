#!/usr/bin/env bats
# The design lives in the project: Documentation/design.rst holds the
# sections the tree cites ("design.rst 4.2"), no tracked file points at a
# design file or notes outside the repository, every Documentation page the
# tree names exists, and the README's set-up text says what `make test`
# downloads.  These tests read the tracked files (git ls-files), so they
# need a git checkout; elsewhere they are skipped.

load lib/common

setup() {
	ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
		skip "not a git checkout"
}

# Tracked text files (git's own binary test: a NUL in the first 8000 bytes).
tracked_text() {
	git -C "$ROOT" ls-files -z | python3 -c '
import sys
for p in sys.stdin.buffer.read().split(b"\0"):
    if not p:
        continue
    try:
        with open(p, "rb") as f:
            if b"\0" in f.read(8000):
                continue
    except OSError:
        continue        # deleted in the work tree, or a dangling link
    print(p.decode())
'
}

@test "no tracked file cites a design file or notes outside the repository" {
	cd "$ROOT"
	tracked_text >"$BATS_TEST_TMPDIR/files"
	[ -s "$BATS_TEST_TMPDIR/files" ]
	# The patterns are spelt with a bracket so that this file does not match them.
	run xargs -d '\n' grep -nIE \
		-e 'DESIG[N]\.md' \
		-e 'share[d]/reference' \
		-e '\.\./share[d]' \
		-e '(^|[^A-Za-z0-9_.~-])/wor[k](/|[^A-Za-z0-9_.-]|$)' \
		/dev/null <"$BATS_TEST_TMPDIR/files"
	echo "$output"
	[ -z "$output" ]
}

@test "design.rst has the numbered sections of the design" {
	python3 - "$ROOT/Documentation/design.rst" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read().split("\n")
heads = {}
for i in range(len(text) - 1):
    m = re.match(r"(\d+(?:\.\d+)?)\.?\s+(\S.*)$", text[i])
    u = text[i + 1]
    if m and u and re.fullmatch(r"([=\-~^])\1*", u) and len(u) >= len(text[i]):
        heads[m.group(1)] = m.group(2).lower()
want = {
    "1": "flow", "2": "layout", "3": "perf.data", "4": "carriage",
    "4.1": "cxl", "4.2": "panthor", "4.3": "i915", "4.4": "raw",
    "5": "tracepoint", "6": "cli", "7": "record",
}
bad = [f"{n} {w!r}: {heads.get(n)!r}" for n, w in want.items() if w not in heads.get(n, "")]
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
}

@test "every design.rst citation in the tree names a section of design.rst" {
	cd "$ROOT"
	tracked_text >"$BATS_TEST_TMPDIR/files"
	[ -s "$BATS_TEST_TMPDIR/files" ]
	python3 - "$ROOT/Documentation/design.rst" "$BATS_TEST_TMPDIR/files" <<'PY'
import re, sys
design, listing = sys.argv[1], sys.argv[2]
try:
    lines = open(design, encoding="utf-8").read().split("\n")
except OSError as e:
    print(f"no design page: {e}")
    sys.exit(1)
sections = set()
for i in range(len(lines) - 1):
    m = re.match(r"(\d+(?:\.\d+)?)\.?\s+\S", lines[i])
    u = lines[i + 1]
    if m and u and re.fullmatch(r"([=\-~^])\1*", u) and len(u) >= len(lines[i]):
        sections.add(m.group(1))
num = r"\d+(?:\.\d+)?"
cite = re.compile(r"design\.rst,?\s+(?:sections?\s+)?(" + num +
                  r"(?:\s*(?:,|and|-|to)\s*" + num + r")*)")
bad, seen = [], 0
for path in open(listing).read().split("\n"):
    if not path:
        continue
    text = open(path, encoding="utf-8", errors="replace").read()
    # join a citation broken over lines, also inside C and shell comments
    flat = re.sub(r"[ \t]*\n[ \t]*(?:\*(?!/)|#|//)?[ \t]*", " ", text)
    for m in cite.finditer(flat):
        for n in re.findall(num, m.group(1)):
            seen += 1
            if n not in sections:
                bad.append(f"{path}: '{m.group(0)}': no section {n}")
print("\n".join(bad))
print(f"{seen} citations, sections {sorted(sections)}", file=sys.stderr)
sys.exit(1 if bad or not seen else 0)
PY
}

@test "every Documentation page a tracked file names exists" {
	cd "$ROOT"
	missing=$(git grep -IhoE 'Documentation/[A-Za-z0-9_-]+\.rst' | sort -u |
		while read -r p; do [ -f "$p" ] || echo "$p"; done)
	echo "missing: $missing"
	[ -z "$missing" ]
}

@test "the README says what make test downloads, as the e2e script does it" {
	cd "$ROOT"
	# what tests/e2e/run.sh fetches: Debian's kernel image package, with apt-get download
	grep -q 'apt-get download -q "linux-image-' tests/e2e/run.sh
	grep -q 'apt-get download' README.md
	grep -q 'linux-image-' README.md
	grep -q 'Documentation/design.rst' README.md
	! grep -q 'about a minute' README.md || false
}
