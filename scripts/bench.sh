#!/usr/bin/env bash
# bench.sh — measure a full dreamd pass against the performance targets.
#
# It builds dreamd and its helpers, generates a realistic Claude Code corpus (scripts/gencorpus),
# and measures in one run, on the same files:
#   - `cat FILES | wc -l`, and jq selecting the user and assistant records (the baselines);
#   - `dreamd run --once --dry-run` against scripts/instantllm, an OpenAI-compatible server that
#     answers at once and logs each prompt's size and which planted lessons it carries;
#   - a real `dreamd run --once` (applies, moves the cursors), then a run with nothing new;
#   - with BIG=1, one single 2 GB transcript, for peak memory.
# Then it prints the figures beside their targets, as ratios, with PASS/FAIL. It needs no network.
#
# Environment (defaults in brackets):
#   SIZE [400MB] SESSIONS [200] PROJECTS [10] LESSONS [20] MEMORIES [30 per store] SEED [1]
#   BUDGET [100000]  llm.max_input_tokens of the passes
#   BIG [0]          1: also check peak memory on one transcript of BIG_SIZE [2GB]
#   REPEAT [3]       runs of each measured command but the apply; the fastest counts (the machine
#                    may be busy), and the largest peak RSS
#   QUIET_RUNS [20]  consecutive nothing-new runs timed together; their mean is the figure
#   KEEP [0]         1: keep the work directory (corpus, reports, logs) and print where it is
#   TMPDIR           where the work directory goes (needs SIZE, or BIG_SIZE, of free disk)
#
# Exit status: 0 when every target is met, 1 when one is missed, 2 when a step failed.
set -euo pipefail

SIZE=${SIZE:-400MB}
SESSIONS=${SESSIONS:-200}
PROJECTS=${PROJECTS:-10}
LESSONS=${LESSONS:-20}
MEMORIES=${MEMORIES:-30}
SEED=${SEED:-1}
BUDGET=${BUDGET:-100000}
BIG=${BIG:-0}
BIG_SIZE=${BIG_SIZE:-2GB}
KEEP=${KEEP:-0}
REPEAT=${REPEAT:-3}
QUIET_RUNS=${QUIET_RUNS:-20}

# Targets.
MAX_VS_JQ=0.10  # a full dry run takes at most a tenth of jq selecting the records
MAX_VS_WC=4     # ... and at most 4x `cat | wc -l`
MAX_RSS_MB=150  # peak RSS of a pass, whatever the size of one transcript
MAX_AGAIN_PCT=2 # a run with nothing new, as a share of a full pass

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/dreamd-bench.XXXXXX")
bin=$work/bin
llm_pid=""
failed=0

cleanup() {
	if [[ -n $llm_pid ]]; then
		kill "$llm_pid" 2>/dev/null || true
		wait "$llm_pid" 2>/dev/null || true
	fi
	if [[ $KEEP == 1 ]]; then
		echo "kept $work"
	else
		rm -rf "$work"
	fi
}
trap cleanup EXIT

die() {
	echo "bench: $*" >&2
	exit 2
}

[[ -x /usr/bin/time ]] || die "GNU time is needed at /usr/bin/time (apt-get install time)"
command -v go >/dev/null || die "go is not on PATH"

# measure NAME OUT CMD...: runs CMD with stdout to OUT and stderr to $work/NAME.err; sets secs
# (wall clock, nanosecond clock), rss_kb (GNU time's peak resident set) and status.
measure() {
	local name=$1 out=$2
	shift 2
	local t0 t1
	t0=$(date +%s%N)
	set +e
	/usr/bin/time -f '%e %M' -o "$work/$name.time" "$@" >"$out" 2>"$work/$name.err"
	status=$?
	set -e
	t1=$(date +%s%N)
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
	rss_kb=$(awk 'END { print $2 }' "$work/$name.time")
}

# best N NAME OUT CMD...: measure, N times; keeps the shortest wall time in secs (the run least
# disturbed by other load on the machine) and the largest peak RSS in rss_kb.
best() {
	local n=$1 name=$2 out=$3 min="" max=0
	shift 3
	for _ in $(seq "$n"); do
		measure "$name" "$out" "$@"
		[[ $status == 0 ]] || return 0
		min=$(awk -v a="$secs" -v b="${min:-$secs}" 'BEGIN { print (a < b) ? a : b }')
		max=$((rss_kb > max ? rss_kb : max))
	done
	secs=$min rss_kb=$max
}

# dreamd runs with a clean environment and a home of its own, so nothing of the caller's
# configuration, keys or ~/.claude is read or written. (env execs dreamd: time measures dreamd.)
dreamd=(env -i PATH="$PATH" HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config"
	XDG_STATE_HOME="$work/home/.local/state" TZ=UTC "$bin/dreamd")

# start_llm MANIFEST LOG: starts instantllm on a free port; sets llm_url.
start_llm() {
	"$bin/instantllm" -manifest "$1" -log "$2" >"$work/llm.addr" 2>"$work/llm.err" &
	llm_pid=$!
	for _ in $(seq 200); do
		[[ -s $work/llm.addr ]] && break
		kill -0 "$llm_pid" 2>/dev/null || die "instantllm did not start: $(cat "$work/llm.err")"
		sleep 0.05
	done
	llm_url=$(head -n 1 "$work/llm.addr")
	[[ -n $llm_url ]] || die "instantllm printed no address"
}

stop_llm() {
	kill "$llm_pid"
	wait "$llm_pid" 2>/dev/null || true
	llm_pid=""
	: >"$work/llm.addr"
}

# write_config FILE SOURCE ROOT STATE: a config for one benchmark pass against instantllm.
write_config() {
	cat >"$1" <<EOF
sources:
  - {kind: claude, path: "$2"}
store: {mode: claude, root: "$3"}
llm: {base_url: "$llm_url", api_key: bench, model: bench-instant, timeout: 120s, max_retries: 0, max_input_tokens: $BUDGET}
state_dir: "$4"
log: {level: warn, format: text}
EOF
}

# summary LOG MANIFEST KEY: one figure of instantllm's request log. instantllm writes its log when
# it stops (so its accounting never competes with the timed runs): call this after stop_llm.
summary() {
	"$bin/instantllm" -summarize "$1" -manifest "$2" | sed -n "s/^$3=//p"
}

# check_run NAME: stops the benchmark when a dreamd run failed.
check_run() {
	if [[ $status != 0 ]]; then
		echo "dreamd $1 failed (exit $status):" >&2
		tail -n 20 "$work/$1.err" >&2
		die "cannot measure $1"
	fi
}

# judge OK: sets result to PASS or FAIL, and remembers a failure for the exit status.
judge() {
	if [[ $1 == 1 ]]; then
		result=PASS
	else
		result=FAIL
		failed=1
	fi
}

le() { awk -v a="$1" -v b="$2" 'BEGIN { print (a <= b) ? 1 : 0 }'; }
div() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "inf" }'; }
mb() { awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }
mbps() { awk -v b="$1" -v s="$2" 'BEGIN { if (s > 0) printf "%.0f", b / 1048576 / s; else print "-" }'; }

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
echo "machine: $(nproc) CPUs, ${cpu:-unknown CPU}, $(awk '/^MemTotal:/ { printf "%.1f GB", $2 / 1048576 }' /proc/meminfo) RAM; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "go: $(go version | cut -d' ' -f3-)"

echo "building dreamd, gencorpus and instantllm ..."
mkdir -p "$bin" "$work/home"
(cd "$repo" && go build -o "$bin/dreamd" ./cmd/dreamd && go build -o "$bin/gencorpus" ./scripts/gencorpus &&
	go build -o "$bin/instantllm" ./scripts/instantllm) || die "build failed"

echo "generating $SIZE in $SESSIONS sessions of $PROJECTS projects, $LESSONS planted lessons, $MEMORIES memories per store ..."
manifest=$work/manifest.json
measure gencorpus "$manifest" "$bin/gencorpus" -dir "$work/corpus" -projects "$PROJECTS" -sessions "$SESSIONS" \
	-size "$SIZE" -seed "$SEED" -lessons "$LESSONS" -memories "$MEMORIES" -store-root "$work/root"
[[ $status == 0 ]] || die "gencorpus failed: $(cat "$work/gencorpus.err")"
gen_secs=$secs
mapfile -t files < <(find "$work/corpus/claude" -name '*.jsonl' -type f | sort)
bytes=$(cat "${files[@]}" | wc -c) # also brings the corpus into the page cache for every contender
lines_total=$(sed -n 's/^  "lines": \([0-9]*\),$/\1/p' "$manifest")
longest=$(sed -n 's/^  "longest_line": \([0-9]*\)$/\1/p' "$manifest")
echo "corpus: ${#files[@]} files, $(mb $((bytes / 1024))) MB, ${lines_total:-?} lines, longest line $(mb $((${longest:-0} / 1024))) MB; written in ${gen_secs}s"

# Baselines.
best "$REPEAT" wc "$work/wc.out" sh -c 'cat "$@" | wc -l' sh "${files[@]}"
wc_secs=$secs
jq_secs=""
if command -v jq >/dev/null; then
	echo "running jq (the slowest step) ..."
	best "$REPEAT" jq /dev/null jq -c 'select(.type=="user" or .type=="assistant") | .message.content' "${files[@]}"
	[[ $status == 0 ]] || die "jq failed: $(tail -n 3 "$work/jq.err")"
	jq_secs=$secs
else
	echo "jq is not installed: the jq comparison is skipped"
fi

# A full pass, dry.
mkdir -p "$work/state"
start_llm "$manifest" "$work/llm-dry.jsonl"
write_config "$work/config.yaml" "$work/corpus/claude" "$work/root" "$work/state"
echo "dreamd run --once --dry-run ..."
best "$REPEAT" dry "$work/dry.report" "${dreamd[@]}" --config "$work/config.yaml" run --once --dry-run
check_run dry
dry_secs=$secs dry_rss=$rss_kb
dry_runs=$REPEAT

# Progress: on a terminal a long pass shows it (a line rewritten with \r); piped, it stays quiet.
progress=""
if command -v script >/dev/null; then
	echo "dreamd run --once --dry-run on a terminal (script) ..."
	script -qec "$(printf '%q ' "${dreamd[@]}" --config "$work/config.yaml" run --once --dry-run)" /dev/null >"$work/tty.out" 2>&1 || true
	updates=$(sed 's/\r$//' "$work/tty.out" | tr -cd '\r' | wc -c)
	piped=$(tr -cd '\r' <"$work/dry.err" | wc -c)
	progress="$updates updates on a terminal, $piped when piped"
	dry_runs=$((dry_runs + 1))
fi
stop_llm
requests=$(($(summary "$work/llm-dry.jsonl" "$manifest" requests) / dry_runs)) # the log holds every run

# A real pass moves the cursors; the next run has nothing new.
start_llm "$manifest" "$work/llm-apply.jsonl"
write_config "$work/config.yaml" "$work/corpus/claude" "$work/root" "$work/state"
echo "dreamd run --once (apply) ..."
measure apply "$work/apply.report" "${dreamd[@]}" --config "$work/config.yaml" run --once
check_run apply
apply_secs=$secs apply_rss=$rss_kb
stop_llm
start_llm "$manifest" "$work/llm-again.jsonl"
write_config "$work/config.yaml" "$work/corpus/claude" "$work/root" "$work/state"
echo "dreamd run --once (nothing new), $QUIET_RUNS runs in a row ..."
# A quiet run takes milliseconds, about what this script's own timing wrappers cost; timing
# consecutive runs as one, as a scheduler issues them, keeps those wrappers out of the figure.
best "$REPEAT" again "$work/again.report" bash -c 'for _ in $(seq "$1"); do "${@:2}" || exit; done' _ "$QUIET_RUNS" \
	"${dreamd[@]}" --config "$work/config.yaml" run --once
check_run again
again_secs=$(awk -v s="$secs" -v n="$QUIET_RUNS" 'BEGIN { printf "%.4f", s / n }') again_rss=$rss_kb
stop_llm
again_requests=$(summary "$work/llm-again.jsonl" "$manifest" requests)

max_tokens=$(summary "$work/llm-dry.jsonl" "$manifest" max_tokens)
max_bytes=$(summary "$work/llm-dry.jsonl" "$manifest" max_bytes)
found=$(summary "$work/llm-dry.jsonl" "$manifest" lessons_found)
verbatim=$(summary "$work/llm-dry.jsonl" "$manifest" lessons_verbatim)
total=$(summary "$work/llm-dry.jsonl" "$manifest" lessons_total)
missing=$(summary "$work/llm-dry.jsonl" "$manifest" lessons_missing)

# One giant transcript: memory must stay flat.
big_secs="" big_rss="" big_wc=""
if [[ $BIG == 1 ]]; then
	echo "generating one $BIG_SIZE transcript ..."
	measure genbig "$work/big-manifest.json" "$bin/gencorpus" -dir "$work/big" -projects 1 -sessions 1 -size "$BIG_SIZE" -seed "$SEED" -lessons 1
	[[ $status == 0 ]] || die "gencorpus failed: $(cat "$work/genbig.err")"
	mapfile -t big_files < <(find "$work/big/claude" -name '*.jsonl' -type f)
	best "$REPEAT" bigwc "$work/bigwc.out" sh -c 'cat "$@" | wc -l' sh "${big_files[@]}"
	big_wc=$secs
	mkdir -p "$work/big-state"
	start_llm "$work/big-manifest.json" "$work/llm-big.jsonl"
	write_config "$work/big.yaml" "$work/big/claude" "$work/big-root" "$work/big-state"
	echo "dreamd run --once --dry-run on the $BIG_SIZE transcript ..."
	measure big "$work/big.report" "${dreamd[@]}" --config "$work/big.yaml" run --once --dry-run
	check_run big
	big_secs=$secs big_rss=$rss_kb
	big_read=$(sed -n 's/.*sessions read: .*(\([0-9.]* MB\) new).*/\1/p' "$work/big.report" | head -n 1)
	# A pass reads a bounded share of one transcript; applied passes go on where the last stopped
	# until it is consumed, and the planted lesson must reach the model in one of them.
	big_passes=0
	for pass in 1 2 3 4 5 6; do
		echo "dreamd run --once on the $BIG_SIZE transcript, pass $pass ..."
		measure "bigpass$pass" "$work/bigpass$pass.report" "${dreamd[@]}" --config "$work/big.yaml" run --once
		check_run "bigpass$pass"
		big_rss=$((rss_kb > big_rss ? rss_kb : big_rss))
		grep -q "nothing new" "$work/bigpass$pass.report" && break
		big_passes=$pass
	done
	stop_llm
	big_found=$(summary "$work/llm-big.jsonl" "$work/big-manifest.json" lessons_found)
	big_tokens=$(summary "$work/llm-big.jsonl" "$work/big-manifest.json" max_tokens)
	rm -rf "$work/big"
fi

# The table.
echo
echo "load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
row() { printf '%-34s %9s  %-42s %-18s %s\n' "$@"; }
row "figure" "seconds" "value" "target" "result"
row "cat FILES | wc -l" "$wc_secs" "$(mbps "$bytes" "$wc_secs") MB/s" "" ""
if [[ -n $jq_secs ]]; then
	row "jq select user/assistant" "$jq_secs" "$(mbps "$bytes" "$jq_secs") MB/s" "" ""
fi
row "dreamd dry run (full pass)" "$dry_secs" "$(mbps "$bytes" "$dry_secs") MB/s" "" ""
ratio=$(div "$dry_secs" "$wc_secs")
judge "$(le "$ratio" "$MAX_VS_WC")"
row "  vs cat | wc -l" "" "${ratio}x" "<= ${MAX_VS_WC}x" "$result"
if [[ -n $jq_secs ]]; then
	ratio=$(div "$dry_secs" "$jq_secs")
	judge "$(le "$ratio" "$MAX_VS_JQ")"
	row "  vs jq" "" "${ratio}x" "<= ${MAX_VS_JQ}x" "$result"
fi
judge "$(le "$(mb "$dry_rss")" "$MAX_RSS_MB")"
row "  peak RSS" "" "$(mb "$dry_rss") MB" "<= $MAX_RSS_MB MB" "$result"
row "  LLM requests" "" "$requests (one per store)" "" ""
judge "$(le "$max_tokens" "$BUDGET")"
row "  largest prompt" "" "$max_tokens tokens, $max_bytes B" "<= $BUDGET tokens" "$result"
judge "$([[ $found == "$total" ]] && echo 1 || echo 0)"
row "  planted lessons reaching model" "" "$found/$total ($verbatim verbatim)" "$total/$total" "$result"
[[ -z $missing ]] || echo "    missing: $missing"
if [[ -n $progress ]]; then
	judge "$([[ $updates -gt 0 && $piped == 0 ]] && echo 1 || echo 0)"
	row "  progress" "" "$progress" "shown / quiet" "$result"
fi
judge "$(le "$(mb "$apply_rss")" "$MAX_RSS_MB")"
row "dreamd run --once (apply)" "$apply_secs" "peak RSS $(mb "$apply_rss") MB" "<= $MAX_RSS_MB MB" "$result"
pct=$(awk -v a="$again_secs" -v b="$dry_secs" 'BEGIN { printf "%.2f", 100 * a / b }')
judge "$(le "$pct" "$MAX_AGAIN_PCT")"
row "dreamd run --once (nothing new)" "$again_secs" "${pct}% of a full pass" "<= ${MAX_AGAIN_PCT}%" "$result"
judge "$([[ $again_requests == 0 ]] && echo 1 || echo 0)"
row "  LLM requests" "" "$again_requests" "0" "$result"
if [[ $BIG == 1 ]]; then
	row "$BIG_SIZE transcript: cat | wc -l" "$big_wc" "" "" ""
	row "$BIG_SIZE transcript: dry run" "$big_secs" "$(div "$big_secs" "$big_wc")x wc, read ${big_read:-?}" "" ""
	row "  applied passes to consume it" "" "$big_passes" "" ""
	judge "$(le "$(mb "$big_rss")" "$MAX_RSS_MB")"
	row "  peak RSS, any pass" "" "$(mb "$big_rss") MB (corpus: $(mb "$dry_rss"))" "<= $MAX_RSS_MB MB" "$result"
	judge "$([[ $big_found == 1 ]] && echo 1 || echo 0)"
	row "  planted lesson reaching model" "" "$big_found/1" "1/1" "$result"
	judge "$(le "$big_tokens" "$BUDGET")"
	row "  largest prompt" "" "$big_tokens tokens" "<= $BUDGET tokens" "$result"
else
	echo "(BIG=1 also checks peak RSS on a single $BIG_SIZE transcript)"
fi
exit "$failed"
