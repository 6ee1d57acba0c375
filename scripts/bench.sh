#!/usr/bin/env bash
# bench.sh — measure dreamd against its performance targets, along several axes.
#
# It builds dreamd and its helpers, generates what each axis needs (scripts/gencorpus), and
# measures every figure beside a baseline taken in the same run on the same files, printing the
# ratio, the target and PASS/FAIL (the machine may be shared: ratios within one run hold better
# than seconds from different days). It needs no network. The axes (AXES, all by default):
#
#   bytes     one realistic Claude Code corpus (SIZE): `cat FILES | wc -l`, and jq selecting the
#             user and assistant records (the baselines); `dreamd run --once --dry-run` against
#             scripts/instantllm, an OpenAI-compatible server that answers at once and logs each
#             prompt's size and which planted lessons it carries; a real `dreamd run --once`
#             (applies, moves the cursors), then runs with nothing new; with BIG=1, one single
#             2 GB transcript, for peak memory.
#   memories  a store of MEM_STORE hand-written-looking memories and one new session: a dry pass
#             beside the same pass on a store of MEM_BASE memories; and the near-duplicate hints
#             over SIMILAR memories that all have near-duplicates, beside as many distinct ones
#             (a Go benchmark added to internal/extract with `go test -overlay`, see
#             scripts/overlay/extract).
#   stores    STORES stores of one small session each against instantllm holding every reply
#             LATENCY seconds: the dry pass beside the ideal STORES × LATENCY / llm.concurrency,
#             and the most calls the server saw in flight at once.
#   files     FILES small transcripts (FILE_SIZE each) in FILE_PROJECTS projects: a dry pass
#             beside `cat | wc -l` over them, a pass with nothing new beside
#             `find -name '*.jsonl' | wc -l`, and (DAEMON=1) the daemon's RSS between checks.
#   backlog   a first pass over a long history, each store's new material many times its budget,
#             in the shapes of BACKLOG (FILES x SIZE x PROJECTS each; SIZE 1line: one-record
#             transcripts): a dry pass against instantllm beside `find | xargs cat | wc -l` of the
#             same files (judged) and `find | wc -l` (for reference), its peak RSS, and how many
#             sessions it consolidated and left for later.
#   runs      one store tracking TRACKED transcripts, then RUNS applied runs (offline
#             consolidator), each appending a session to one transcript: the state directory's
#             size, `dreamd history` and a pass with nothing new after RUNS runs, beside the
#             same after RUNS_BASE runs.
#
# Environment (defaults in brackets):
#   AXES ["bytes memories stores files backlog runs"]  which axes to measure, in this order
#   REPEAT [3]       runs of each measured command (but the bytes axis's apply, the slow stores
#                    pass and the runs loop); the fastest counts (the machine may be busy), and the
#                    largest peak RSS
#   QUIET_RUNS [20]  consecutive nothing-new runs timed together; their mean is the figure
#   SEED [1] BUDGET [100000] (llm.max_input_tokens of the passes against instantllm)
#   KEEP [0]         1: keep the work directory (corpora, reports, logs) and print where it is
#   TMPDIR           where the work directory goes (needs SIZE + about 300 MB of free disk)
#   bytes:    SIZE [400MB] SESSIONS [200] PROJECTS [10] LESSONS [20] MEMORIES [30 per store]
#             BIG [0] BIG_SIZE [2GB]
#   memories: MEM_STORE [10000] MEM_BASE [100] SIMILAR [5000]
#   stores:   STORES [200] LATENCY [0.5] seconds; STORES_CONCURRENCY [dreamd's default, 4]
#   files:    FILES [50000] FILE_PROJECTS [50] FILE_SIZE [5KB, also of the other axes' small
#             sessions] FILES_QUIET_RUNS [5]
#             DAEMON [1] DAEMON_CHECKS [3] (checks of the daemon, every 5 s, to sample RSS after)
#   backlog:  BACKLOG ["50000x12KBx50 30000x8KBx100 20000x30KBx8 10000x60KBx5 100000x1linex1"]
#   runs:     RUNS [1000] RUNS_BASE [10] TRACKED [1000]
# For a quick look: AXES="files runs" FILES=5000 RUNS=100 REPEAT=1 scripts/bench.sh
#
# Exit status: 0 when every target is met, 1 when one is missed, 2 when a step failed.
set -euo pipefail

AXES=${AXES:-bytes memories stores files backlog runs}
REPEAT=${REPEAT:-3}
QUIET_RUNS=${QUIET_RUNS:-20}
SEED=${SEED:-1}
BUDGET=${BUDGET:-100000}
KEEP=${KEEP:-0}
# bytes
SIZE=${SIZE:-400MB}
SESSIONS=${SESSIONS:-200}
PROJECTS=${PROJECTS:-10}
LESSONS=${LESSONS:-20}
MEMORIES=${MEMORIES:-30}
BIG=${BIG:-0}
BIG_SIZE=${BIG_SIZE:-2GB}
# memories
MEM_STORE=${MEM_STORE:-10000}
MEM_BASE=${MEM_BASE:-100}
SIMILAR=${SIMILAR:-5000}
# stores
STORES=${STORES:-200}
LATENCY=${LATENCY:-0.5}
STORES_CONCURRENCY=${STORES_CONCURRENCY:-}
# files
FILES=${FILES:-50000}
FILE_PROJECTS=${FILE_PROJECTS:-50}
FILE_SIZE=${FILE_SIZE:-5KB}
FILES_QUIET_RUNS=${FILES_QUIET_RUNS:-5}
DAEMON=${DAEMON:-1}
DAEMON_CHECKS=${DAEMON_CHECKS:-3}
# backlog
BACKLOG=${BACKLOG:-50000x12KBx50 30000x8KBx100 20000x30KBx8 10000x60KBx5 100000x1linex1}
# runs
RUNS=${RUNS:-1000}
RUNS_BASE=${RUNS_BASE:-10}
TRACKED=${TRACKED:-1000}

# Targets.
MAX_VS_JQ=0.10       # bytes: a full dry run takes at most a tenth of jq selecting the records
MAX_VS_WC=4          # ... and at most 4x `cat | wc -l`
MAX_RSS_MB=150       # ... peak RSS of a pass, whatever the size of one transcript
MAX_AGAIN_PCT=2      # ... a run with nothing new, as a share of a full pass
MEM_MAX_SECS=2       # memories: a pass over a 10,000-memory store and one new session
MEM_MAX_RSS_MB=200   # ... its peak RSS
HINTS_MAX_SECS=0.5   # ... near-duplicate hints over 5,000 similar memories
STORES_MAX_RATIO=1.2 # stores: a pass at most 1.2x STORES x LATENCY / llm.concurrency
FILES_MAX_VS_WC=3    # files: a full dry pass at most 3x `cat | wc -l`
FILES_MAX_VS_FIND=3  # ... a pass with nothing new at most 3x `find -name '*.jsonl' | wc -l`
FILES_MAX_QUIET=0.15 # ... and at most 0.15 s
DAEMON_MAX_MB=40     # ... the daemon's RSS between checks
BACKLOG_MAX_VS_WC=3  # backlog: a first pass at most 3x `find | xargs cat | wc -l`
BACKLOG_MAX_RSS_MB=200 # ... and its peak RSS
RUNS_MAX_STATE_MB=20 # runs: the state directory after RUNS runs
RUNS_MAX_RATIO=1.5   # ... history and a pass with nothing new, against the same after RUNS_BASE runs

for axis in $AXES; do
	case $axis in
	bytes | memories | stores | files | backlog | runs) ;;
	*)
		echo "bench: unknown axis $axis in AXES (bytes memories stores files backlog runs)" >&2
		exit 2
		;;
	esac
done

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/dreamd-bench.XXXXXX")
bin=$work/bin
llm_pid=""
daemon_pid=""
failed=0
errors=0

cleanup() {
	if [[ -n $llm_pid ]]; then
		kill "$llm_pid" 2>/dev/null || true
		wait "$llm_pid" 2>/dev/null || true
	fi
	if [[ -n $daemon_pid ]]; then
		kill "$daemon_pid" 2>/dev/null || true
		wait "$daemon_pid" 2>/dev/null || true
	fi
	if [[ $KEEP == 1 ]]; then
		echo "kept $work"
	else
		rm -rf "$work"
	fi
}
trap cleanup EXIT
llm_url=""

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

# start_llm MANIFEST LOG [FLAG...]: starts instantllm on a free port, with FLAGs (-latency 500ms);
# sets llm_url.
start_llm() {
	"$bin/instantllm" -manifest "$1" -log "$2" "${@:3}" >"$work/llm.addr" 2>"$work/llm.err" &
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

# write_config FILE SOURCE ROOT STATE [LLM [EXTRA]]: a config for one benchmark pass. LLM is the
# llm mapping (default: instantllm's, see instant_llm); EXTRA, more top-level YAML; log_level,
# when set, the log level (warn: a pass's report is all the output).
write_config() {
	cat >"$1" <<EOF
sources:
  - {kind: claude, path: "$2"}
store: {mode: claude, root: "$3"}
llm: ${5:-$(instant_llm)}
state_dir: "$4"
log: {level: ${log_level:-warn}, format: text}
${6:-}
EOF
}

# instant_llm [KEYS]: the llm mapping for instantllm at llm_url, with more KEYS (", concurrency: 8").
instant_llm() {
	echo "{base_url: \"$llm_url\", api_key: bench, model: bench-instant, timeout: 120s, max_retries: 0, max_input_tokens: $BUDGET${1:-}}"
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

# gen OUT ARGS...: runs gencorpus with ARGS, its manifest to OUT; stops the benchmark on failure.
gen() {
	local out=$1
	shift
	mkdir -p "$(dirname "$out")"
	measure gencorpus "$out" "$bin/gencorpus" "$@"
	[[ $status == 0 ]] || die "gencorpus $*: $(cat "$work/gencorpus.err")"
}

# axis_row AXIS WHAT FIGURE BASELINE RATIO TARGET [OK]: one line of the scaling table. OK is 1
# (PASS) or 0 (FAIL); without it the line is a figure for reference, not judged.
axis_rows=()
axis_row() {
	local result=""
	[[ -z ${7:-} ]] || judge "$7"
	axis_rows+=("$(printf '%-8s %-46s %14s %14s %9s  %-22s %s' "$1" "$2" "$3" "$4" "$5" "$6" "$result")")
}

# step_error WHAT FILE: a step that could not be measured; the exit status will be 2.
step_error() {
	echo "bench: $1 failed:" >&2
	tail -n 20 "$2" >&2
	errors=1
}

le() { awk -v a="$1" -v b="$2" 'BEGIN { print (a <= b) ? 1 : 0 }'; }
div() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "inf" }'; }
ratio() { echo "$(div "$1" "$2")x"; }
mul() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a * b }'; }
mb() { awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }
mb1() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }
mbps() { awk -v b="$1" -v s="$2" 'BEGIN { if (s > 0) printf "%.0f", b / 1048576 / s; else print "-" }'; }


# The bytes axis: one realistic corpus of SIZE bytes (and with BIG=1, one BIG_SIZE transcript).
axis_bytes() {
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
}

# report_bytes: the bytes axis's table.
report_bytes() {
	echo
	echo "bytes: $SIZE in $SESSIONS sessions of $PROJECTS projects"
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
}

# The memories axis. A store of MEM_STORE memories (caps raised to hold it) and one new session:
# a dry pass beside the same pass over MEM_BASE memories; the same store at the default caps,
# where the pass retires a quarter of it; and the near-duplicate hints over SIMILAR memories.
axis_memories() {
	local dir=$work/memories p1=-home-bench-p1
	echo "memories: stores of $MEM_STORE and $MEM_BASE memories, one new session ..."
	gen "$dir/corpus.json" -mode small -dir "$dir/corpus" -projects 1 -sessions 1 -file-size "$FILE_SIZE" -seed "$SEED"
	gen "$dir/big.json" -mode store -store "$dir/big/$p1/memory" -memories "$MEM_STORE" -seed "$SEED"
	gen "$dir/base.json" -mode store -store "$dir/base/$p1/memory" -memories "$MEM_BASE" -seed "$SEED"
	start_llm "$dir/corpus.json" "$dir/llm.jsonl"
	# A store holds 10,000 memories only with its index caps raised: at the default caps every pass
	# retires up to limits.max_retire_fraction of it (measured too, as "default caps").
	local caps="limits: {index_max_lines: 1000000, index_max_bytes: 1000000000}"
	write_config "$dir/base.yaml" "$dir/corpus/claude" "$dir/base" "$dir/base-state" "" "$caps"
	write_config "$dir/big.yaml" "$dir/corpus/claude" "$dir/big" "$dir/big-state" "" "$caps"
	write_config "$dir/capped.yaml" "$dir/corpus/claude" "$dir/big" "$dir/capped-state"
	best "$REPEAT" mem-base "$dir/base.report" "${dreamd[@]}" --config "$dir/base.yaml" run --once --dry-run
	check_run mem-base
	local base_secs=$secs base_rss=$rss_kb
	echo "dreamd run --once --dry-run on the $MEM_STORE-memory store ..."
	best "$REPEAT" mem-big "$dir/big.report" "${dreamd[@]}" --config "$dir/big.yaml" run --once --dry-run
	check_run mem-big
	local big_secs=$secs big_rss=$rss_kb
	best "$REPEAT" mem-capped "$dir/capped.report" "${dreamd[@]}" --config "$dir/capped.yaml" run --once --dry-run
	check_run mem-capped
	local capped_secs=$secs capped_rss=$rss_kb
	local retired
	retired=$(sed -n 's/.* \([0-9]*\) retired,.*/\1/p' "$dir/capped.report" | head -n 1)
	# The applied pass writes nothing to the store (the instant model changes nothing, the store
	# fits its caps), only the cursors and history in its state: with that state removed before
	# each (bash execs dreamd, so time measures dreamd), it repeats like the dry pass.
	best "$REPEAT" mem-apply "$dir/apply.report" bash -c 'rm -rf "$1" && exec "${@:2}"' _ "$dir/big-state" \
		"${dreamd[@]}" --config "$dir/big.yaml" run --once
	check_run mem-apply
	local apply_secs=$secs apply_rss=$rss_kb
	stop_llm

	axis_row memories "$MEM_STORE memories + 1 session: dry pass (s)" "$big_secs" "$base_secs" "$(ratio "$big_secs" "$base_secs")" \
		"<= $MEM_MAX_SECS s" "$(le "$big_secs" "$MEM_MAX_SECS")"
	axis_row memories "  peak RSS (MB)" "$(mb "$big_rss")" "$(mb "$base_rss")" "$(ratio "$big_rss" "$base_rss")" \
		"<= $MEM_MAX_RSS_MB MB" "$(le "$(mb "$big_rss")" "$MEM_MAX_RSS_MB")"
	axis_row memories "  applied (s)" "$apply_secs" "$base_secs" "$(ratio "$apply_secs" "$base_secs")" \
		"<= $MEM_MAX_SECS s" "$(le "$apply_secs" "$MEM_MAX_SECS")"
	axis_row memories "  default caps: retires ${retired:-?} (s)" "$capped_secs" "$base_secs" "$(ratio "$capped_secs" "$base_secs")" \
		"<= $MEM_MAX_SECS s" "$(le "$capped_secs" "$MEM_MAX_SECS")"
	axis_row memories "  default caps: peak RSS (MB)" "$(mb "$capped_rss")" "$(mb "$base_rss")" "$(ratio "$capped_rss" "$base_rss")" \
		"<= $MEM_MAX_RSS_MB MB" "$(le "$(mb "$capped_rss")" "$MEM_MAX_RSS_MB")"
	hints "$dir"
}

# hints DIR: the near-duplicate hints are unexported in internal/extract, so their benchmark lives
# in scripts/overlay/extract and is added to the package for this one `go test` by -overlay.
# Figure: the hint step as a pass runs it (rank by relevance, compare the likeliest pairwise,
# render) over SIMILAR memories that all have near-duplicates; baseline: as many distinct ones.
hints() {
	local dir=$1
	echo "near-duplicate hints over $SIMILAR similar memories (go test -bench) ..."
	gen "$dir/similar.json" -mode store -store "$dir/similar" -memories "$SIMILAR" -similar -seed "$SEED"
	gen "$dir/distinct.json" -mode store -store "$dir/distinct" -memories "$SIMILAR" -seed "$SEED"
	printf '{"Replace": {"%s": "%s"}}\n' "$repo/internal/extract/zz_bench_hints_test.go" \
		"$repo/scripts/overlay/extract/hints_bench_test.go.in" >"$dir/overlay.json"
	if ! (cd "$repo" && DREAMD_BENCH_SIMILAR=$dir/similar DREAMD_BENCH_DISTINCT=$dir/distinct \
		go test -overlay "$dir/overlay.json" -run '^$' -bench '^Benchmark(Hints|NearDuplicates)' \
		-benchtime 3x -count "$REPEAT" ./internal/extract) >"$dir/hints.out" 2>&1; then
		step_error "go test -bench for the hints" "$dir/hints.out"
		axis_row memories "$SIMILAR similar: near-dup hints (s)" "-" "-" "-" "<= $HINTS_MAX_SECS s" ""
		return
	fi
	# fastest seconds per op of benchmark $1 over the -count runs
	fastest() { awk -v b="$1" '$1 ~ "^"b"(-[0-9]+)?$" { s = $3 / 1e9; if (m == "" || s < m) m = s } END { printf "%.3f", m }' "$dir/hints.out"; }
	local similar distinct pairwise
	similar=$(fastest BenchmarkHintsSimilar) distinct=$(fastest BenchmarkHintsDistinct)
	pairwise=$(fastest BenchmarkNearDuplicatesSimilar)
	axis_row memories "$SIMILAR similar: near-dup hints (s)" "$similar" "$distinct" "$(ratio "$similar" "$distinct")" \
		"<= $HINTS_MAX_SECS s" "$(le "$similar" "$HINTS_MAX_SECS")"
	axis_row memories "  the pairwise comparison alone (s)" "$pairwise" "" "" "" ""
}

# The stores axis. STORES stores of one small session each; instantllm holds every reply LATENCY
# seconds, so the pass can only be as fast as llm.concurrency calls at a time allow: the baseline is
# that ideal, STORES x LATENCY / concurrency. The server counts the calls in flight.
axis_stores() {
	local dir=$work/stores conc=${STORES_CONCURRENCY:-4} keys=""
	[[ -z $STORES_CONCURRENCY ]] || keys=", concurrency: $STORES_CONCURRENCY"
	echo "stores: $STORES stores, ${LATENCY}s a call, llm.concurrency $conc ..."
	gen "$dir/manifest.json" -mode small -dir "$dir/corpus" -projects "$STORES" -sessions "$STORES" -file-size "$FILE_SIZE" -seed "$SEED"
	start_llm "$dir/manifest.json" "$dir/llm.jsonl" -latency "${LATENCY}s"
	write_config "$dir/config.yaml" "$dir/corpus/claude" "$dir/root" "$dir/state" "$(instant_llm "$keys")"
	# Once: it takes tens of seconds, nearly all of it waiting on the server.
	measure stores-dry "$dir/dry.report" "${dreamd[@]}" --config "$dir/config.yaml" run --once --dry-run
	check_run stores-dry
	local secs_dry=$secs
	stop_llm
	local requests in_flight ideal
	requests=$(summary "$dir/llm.jsonl" "$dir/manifest.json" requests)
	in_flight=$(summary "$dir/llm.jsonl" "$dir/manifest.json" max_in_flight)
	ideal=$(awk -v n="$STORES" -v l="$LATENCY" -v c="$conc" 'BEGIN { printf "%.3f", n * l / c }')
	axis_row stores "$STORES stores, ${LATENCY}s a call: dry pass (s)" "$secs_dry" "$ideal" "$(ratio "$secs_dry" "$ideal")" \
		"<= ${STORES_MAX_RATIO}x ($(mul "$ideal" "$STORES_MAX_RATIO") s)" "$(le "$(div "$secs_dry" "$ideal")" "$STORES_MAX_RATIO")"
	axis_row stores "  calls in flight at most" "$in_flight" "$conc" "" "<= $conc" "$(le "$in_flight" "$conc")"
	axis_row stores "  LLM requests" "$requests" "$STORES" "" "one per store" "$([[ $requests == "$STORES" ]] && echo 1 || echo 0)"
}

# The files axis. FILES small transcripts over FILE_PROJECTS projects. 50,000 paths overflow one
# command line, so the baselines read them through find | xargs, as a person would.
axis_files() {
	local dir=$work/files
	echo "files: $FILES transcripts of about $FILE_SIZE in $FILE_PROJECTS projects ..."
	gen "$dir/manifest.json" -mode small -dir "$dir/corpus" -projects "$FILE_PROJECTS" -sessions "$FILES" -file-size "$FILE_SIZE" -seed "$SEED"
	local src=$dir/corpus/claude
	local files_bytes
	files_bytes=$(sed -n 's/^  "bytes": \([0-9]*\),$/\1/p' "$dir/manifest.json")
	best "$REPEAT" files-wc "$dir/wc.out" sh -c 'find "$1" -name "*.jsonl" -type f -print0 | xargs -0 cat | wc -l' sh "$src"
	local wc_s=$secs
	best "$REPEAT" files-find "$dir/find.out" sh -c 'find "$1" -name "*.jsonl" | wc -l' sh "$src"
	local find_s=$secs
	start_llm "$dir/manifest.json" "$dir/llm.jsonl"
	write_config "$dir/config.yaml" "$src" "$dir/root" "$dir/state"
	echo "dreamd run --once --dry-run over $FILES files ..."
	best "$REPEAT" files-dry "$dir/dry.report" "${dreamd[@]}" --config "$dir/config.yaml" run --once --dry-run
	check_run files-dry
	local dry_s=$secs dry_kb=$rss_kb
	# Applied: the instant model changes no store, so removing the state (cursors, history) before
	# each run makes it repeatable; the last one leaves the cursors for the runs with nothing new.
	best "$REPEAT" files-apply "$dir/apply.report" bash -c 'rm -rf "$1" && exec "${@:2}"' _ "$dir/state" \
		"${dreamd[@]}" --config "$dir/config.yaml" run --once
	check_run files-apply
	local apply_s=$secs
	echo "dreamd run --once (nothing new) over $FILES files, $FILES_QUIET_RUNS runs in a row ..."
	best "$REPEAT" files-again "$dir/again.report" bash -c 'for _ in $(seq "$1"); do "${@:2}" || exit; done' _ "$FILES_QUIET_RUNS" \
		"${dreamd[@]}" --config "$dir/config.yaml" run --once
	check_run files-again
	local again_s
	again_s=$(awk -v s="$secs" -v n="$FILES_QUIET_RUNS" 'BEGIN { printf "%.3f", s / n }')
	stop_llm

	axis_row files "$FILES files ($(mb $((files_bytes / 1024))) MB): dry pass (s)" "$dry_s" "$wc_s" "$(ratio "$dry_s" "$wc_s")" \
		"<= ${FILES_MAX_VS_WC}x cat | wc -l" "$(le "$(div "$dry_s" "$wc_s")" "$FILES_MAX_VS_WC")"
	axis_row files "  peak RSS (MB)" "$(mb "$dry_kb")" "" "" "" ""
	axis_row files "  applied (s)" "$apply_s" "$wc_s" "$(ratio "$apply_s" "$wc_s")" "" ""
	axis_row files "  nothing new, mean of $FILES_QUIET_RUNS (s)" "$again_s" "$find_s" "$(ratio "$again_s" "$find_s")" \
		"<= ${FILES_MAX_VS_FIND}x find | wc -l" "$(le "$(div "$again_s" "$find_s")" "$FILES_MAX_VS_FIND")"
	axis_row files "  nothing new, absolute (s)" "$again_s" "" "" "<= $FILES_MAX_QUIET s" "$(le "$again_s" "$FILES_MAX_QUIET")"
	if [[ $DAEMON == 1 ]]; then
		daemon_rss "$dir" "$src"
	else
		echo "(DAEMON=1 also samples the daemon's RSS between checks)"
	fi
}

# daemon_rss DIR SOURCE: runs the daemon (offline, a check every 5 s, gates open) on a fresh state,
# so its first check is a full pass and the next ones find nothing new, and samples its RSS a second
# after each check is logged done. Baseline: its peak RSS (VmHWM), reached during the first check.
daemon_rss() {
	local dir=$1 src=$2
	echo "the daemon over $FILES files, $DAEMON_CHECKS checks ..."
	log_level=info write_config "$dir/daemon.yaml" "$src" "$dir/daemon-root" "$dir/daemon-state" "{offline: true}" \
		$'schedule: "@every 5s"\ngates: {min_hours: 0, min_sessions: 1, idle_minutes: 0}'
	"${dreamd[@]}" --config "$dir/daemon.yaml" run >"$dir/daemon.log" 2>&1 &
	daemon_pid=$!
	local seen=0 done_checks between=0 hwm=0 kb deadline=$((SECONDS + 600))
	while ((seen < DAEMON_CHECKS)); do
		if ! kill -0 "$daemon_pid" 2>/dev/null; then
			daemon_pid=""
			step_error "the daemon" "$dir/daemon.log"
			return
		fi
		((SECONDS < deadline)) || {
			step_error "the daemon (no $DAEMON_CHECKS checks in 600 s)" "$dir/daemon.log"
			break
		}
		done_checks=$(grep -c 'msg="check done"' "$dir/daemon.log" || true)
		if ((done_checks > seen)); then
			seen=$done_checks
			sleep 1
			kb=$(awk '/^VmRSS:/ { print $2 }' "/proc/$daemon_pid/status")
			between=$((kb > between ? kb : between))
		fi
		sleep 0.1
	done
	hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$daemon_pid/status" 2>/dev/null || echo 0)
	kill "$daemon_pid" 2>/dev/null || true
	wait "$daemon_pid" 2>/dev/null || true
	daemon_pid=""
	((seen > 0)) || return 0
	axis_row files "  daemon RSS after $seen checks (MB)" "$(mb "$between")" "$(mb "$hwm")" "$(ratio "$between" "$hwm")" \
		"<= $DAEMON_MAX_MB MB" "$(le "$(mb "$between")" "$DAEMON_MAX_MB")"
}

# The backlog axis. The first pass on a machine with months of sessions: every store's new material
# is many times llm.max_input_tokens. For each shape of BACKLOG (FILESxSIZExPROJECTS), a dry pass
# against instantllm beside `find | xargs cat | wc -l` over the same files, and its peak RSS. A pass
# reads each store oldest first until the budget is full and leaves the rest for the next passes,
# so the report's counts of sessions read and files left are shown too.
axis_backlog() {
	local shape n size projects
	for shape in $BACKLOG; do
		IFS=x read -r n size projects <<<"$shape"
		[[ -n $projects ]] || die "BACKLOG shape $shape is not FILESxSIZExPROJECTS"
		local dir=$work/backlog-$shape args=(-file-size "$size")
		[[ $size != 1line ]] || args=(-one-line)
		echo "backlog: $n transcripts of $size in $projects projects ..."
		gen "$dir/manifest.json" -mode small -dir "$dir/corpus" -projects "$projects" -sessions "$n" "${args[@]}" -seed "$SEED"
		local src=$dir/corpus/claude bytes
		bytes=$(sed -n 's/^  "bytes": \([0-9]*\),$/\1/p' "$dir/manifest.json")
		best "$REPEAT" backlog-wc "$dir/wc.out" sh -c 'find "$1" -name "*.jsonl" -type f -print0 | xargs -0 cat | wc -l' sh "$src"
		local wc_s=$secs
		best "$REPEAT" backlog-find "$dir/find.out" sh -c 'find "$1" -name "*.jsonl" | wc -l' sh "$src"
		local find_s=$secs
		start_llm "$dir/manifest.json" "$dir/llm.jsonl"
		write_config "$dir/config.yaml" "$src" "$dir/root" "$dir/state"
		best "$REPEAT" backlog-dry "$dir/dry.report" "${dreamd[@]}" --config "$dir/config.yaml" run --once --dry-run
		check_run backlog-dry
		local dry_s=$secs dry_kb=$rss_kb
		stop_llm
		local read left
		read=$(awk '/sessions read:/ { n += $3 } END { print n + 0 }' "$dir/dry.report")
		left=$(awk '/unread for the next pass/ { n += $2 } END { print n + 0 }' "$dir/dry.report")
		axis_row backlog "$n x $size, $projects projects ($(mb $((bytes / 1024))) MB): dry (s)" "$dry_s" "$wc_s" "$(ratio "$dry_s" "$wc_s")" \
			"<= ${BACKLOG_MAX_VS_WC}x cat | wc -l" "$(le "$(div "$dry_s" "$wc_s")" "$BACKLOG_MAX_VS_WC")"
		axis_row backlog "  beside find | wc -l (s)" "$dry_s" "$find_s" "$(ratio "$dry_s" "$find_s")" "" ""
		axis_row backlog "  peak RSS (MB)" "$(mb "$dry_kb")" "" "" "<= $BACKLOG_MAX_RSS_MB MB" "$(le "$(mb "$dry_kb")" "$BACKLOG_MAX_RSS_MB")"
		axis_row backlog "  sessions consolidated, files left unread" "$read" "$left" "" "" ""
		[[ $KEEP == 1 ]] || rm -rf "$dir/corpus" "$dir/root" "$dir/state"
	done
}

# The runs axis. One store tracks TRACKED transcripts (a first applied run reads them all); then
# each of RUNS applied runs appends a session stating a new lesson to one transcript, in turn, and
# consolidates it offline (most runs create or update a memory, so every journal holds
# pre-images). The figures after RUNS runs are set beside the same after RUNS_BASE runs.
axis_runs() {
	local dir=$work/runs
	((RUNS >= RUNS_BASE)) || die "RUNS ($RUNS) must be at least RUNS_BASE ($RUNS_BASE)"
	echo "runs: one store tracking $TRACKED transcripts, $RUNS applied runs ..."
	gen "$dir/manifest.json" -mode small -dir "$dir/corpus" -projects 1 -sessions "$TRACKED" -file-size "$FILE_SIZE" -seed "$SEED"
	local run_files
	mapfile -t run_files < <(find "$dir/corpus/claude" -name '*.jsonl' -type f | sort)
	write_config "$dir/config.yaml" "$dir/corpus/claude" "$dir/root" "$dir/state" "{offline: true}"
	measure runs-track "$dir/track.report" "${dreamd[@]}" --config "$dir/config.yaml" run --once
	check_run runs-track
	local i t0 us_first=0 us_last=0 base_state base_hist base_quiet
	for ((i = 1; i <= RUNS; i++)); do
		"$bin/gencorpus" -mode append -file "${run_files[(i - 1) % ${#run_files[@]}]}" -turn "$i" -seed "$SEED" ||
			die "gencorpus -mode append failed"
		t0=$(date +%s%N)
		"${dreamd[@]}" --config "$dir/config.yaml" run --once >"$dir/run.report" 2>"$work/runs-loop.err" ||
			{
				status=$?
				check_run runs-loop
			}
		t0=$((($(date +%s%N) - t0) / 1000))
		((i > RUNS_BASE)) || us_first=$((us_first + t0))
		((i <= RUNS - RUNS_BASE)) || us_last=$((us_last + t0))
		if ((i == RUNS_BASE)); then
			runs_snapshot "$dir" "$i"
			base_state=$snap_state base_hist=$snap_hist base_quiet=$snap_quiet
		fi
		((i % 100 != 0)) || echo "  $i runs, state $(mb1 "$(du -sb "$dir/state" | cut -f1)") MB"
	done
	runs_snapshot "$dir" "$RUNS"
	local per_first per_last
	per_first=$(awk -v u="$us_first" -v n="$RUNS_BASE" 'BEGIN { printf "%.3f", u / n / 1e6 }')
	per_last=$(awk -v u="$us_last" -v n="$RUNS_BASE" 'BEGIN { printf "%.3f", u / n / 1e6 }')

	local max_bytes=$((RUNS_MAX_STATE_MB * 1048576))
	axis_row runs "state after $RUNS runs (MB)" "$(mb1 "$snap_state")" "$(mb1 "$base_state")" "$(ratio "$snap_state" "$base_state")" \
		"<= $RUNS_MAX_STATE_MB MB" "$(le "$snap_state" "$max_bytes")"
	axis_row runs "  dreamd history (s)" "$snap_hist" "$base_hist" "$(ratio "$snap_hist" "$base_hist")" \
		"<= ${RUNS_MAX_RATIO}x at $RUNS_BASE runs" "$(le "$(div "$snap_hist" "$base_hist")" "$RUNS_MAX_RATIO")"
	axis_row runs "  nothing new, mean of $QUIET_RUNS (s)" "$snap_quiet" "$base_quiet" "$(ratio "$snap_quiet" "$base_quiet")" \
		"<= ${RUNS_MAX_RATIO}x at $RUNS_BASE runs" "$(le "$(div "$snap_quiet" "$base_quiet")" "$RUNS_MAX_RATIO")"
	axis_row runs "  an applied run, mean of last $RUNS_BASE (s)" "$per_last" "$per_first" "$(ratio "$per_last" "$per_first")" "" ""
}

# runs_snapshot DIR N: after N runs, sets snap_state (bytes of the state directory), snap_hist
# (seconds of `dreamd history`) and snap_quiet (seconds of a run with nothing new, the mean of
# QUIET_RUNS in a row).
runs_snapshot() {
	local dir=$1 n=$2
	echo "  after $n runs: state size, dreamd history, runs with nothing new ..."
	snap_state=$(du -sb "$dir/state" | cut -f1)
	best "$REPEAT" "runs-history-$n" "$dir/history-$n.out" "${dreamd[@]}" --config "$dir/config.yaml" history
	check_run "runs-history-$n"
	snap_hist=$secs
	best "$REPEAT" "runs-again-$n" "$dir/again-$n.report" bash -c 'for _ in $(seq "$1"); do "${@:2}" || exit; done' _ "$QUIET_RUNS" \
		"${dreamd[@]}" --config "$dir/config.yaml" run --once
	check_run "runs-again-$n"
	snap_quiet=$(awk -v s="$secs" -v n="$QUIET_RUNS" 'BEGIN { printf "%.4f", s / n }')
}

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
echo "machine: $(nproc) CPUs, ${cpu:-unknown CPU}, $(awk '/^MemTotal:/ { printf "%.1f GB", $2 / 1048576 }' /proc/meminfo) RAM; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "go: $(go version | cut -d' ' -f3-)"

echo "building dreamd, gencorpus and instantllm ..."
mkdir -p "$bin" "$work/home"
(cd "$repo" && go build -o "$bin/dreamd" ./cmd/dreamd && go build -o "$bin/gencorpus" ./scripts/gencorpus &&
	go build -o "$bin/instantllm" ./scripts/instantllm) || die "build failed"

echo "axes: $AXES"
for axis in $AXES; do
	started=$SECONDS
	"axis_$axis"
	echo "($axis: $((SECONDS - started)) s)"
done

echo
echo "load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
[[ " $AXES " != *" bytes "* ]] || report_bytes
if ((${#axis_rows[@]} > 0)); then
	echo
	printf '%-8s %-46s %14s %14s %9s  %-22s %s\n' axis figure measured baseline ratio target result
	printf '%s\n' "${axis_rows[@]}"
fi
((errors == 0)) || exit 2
exit "$failed"
