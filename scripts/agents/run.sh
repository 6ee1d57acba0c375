#!/usr/bin/env bash
# run.sh — the real agent CLIs as dreamd's test oracle.
#
# Installs pinned versions of Claude Code, Codex CLI, Gemini CLI, Qwen Code, GitHub Copilot CLI,
# Cline CLI, OpenCode and Kilo (the last five in qwen.sh, copilot.sh, cline.sh, opencode.sh and
# kilo.sh beside this file) from the npm registry into a
# cache directory (never globally; with the Node they need, from npm too), and runs each in a
# temporary HOME against scripts/agents/fakeapi, a local endpoint on 127.0.0.1 that speaks its API
# (Anthropic Messages, OpenAI Responses, Gemini generateContent, Chat Completions) from a fixed script. Then it checks
# both directions:
#
#   reads   dreamd reads what the CLI wrote: `dreamd sessions --format json` lists the sessions in
#           the right project, with sub-agents handled; the digest a pass sends to a model (caught
#           by fakeapi) holds the person's words, the day's date and the failed tool call, and no
#           vendor text; an offline `dreamd run --once --dry-run` proposes the lesson, and, from a
#           session where the CLI runs the frontend tests in its own working-directory shape
#           (commands.sh), "To run the tests, run `npm test` in `frontend/`" and "Use `npm`, not
#           `pnpm`"; and, where the person picked Chart.js in the CLI's structured question in its
#           terminal UI (answers.sh), the decision, and not the option left; and (Gemini CLI) a
#           session whose chats/ file is gone is read from the prompt log logs.json, once.
#   reaches after `dreamd run --once`, `dreamd link <agent>` and `dreamd mcp` added as the CLI's MCP
#           server (as the README says), the CLI's next request carries the memory (Claude Code's
#           auto memory MEMORY.md, Codex's AGENTS.md, Gemini's GEMINI.md) and dreamd's MCP tools,
#           and a call of the recall tool returns the memory; a preference remembered into the
#           user store reaches it too (`dreamd link claude --user`, the AGENTS.md/GEMINI.md blocks);
#           and a pass over the sessions after the link reads none of dreamd's own block back.
#   paths   (Claude Code) a project with a non-ASCII path and one with a path over 200 characters:
#           dreamd reads each session into the folder Claude Code keeps the project in, and the
#           memory reaches Claude Code's next session there.
#
# Each check prints one PASS or FAIL line; the script exits 1 when any check failed.
#
#   scripts/agents/run.sh              run the checks (AGENTS="claude codex gemini qwen copilot cline opencode"
#                                      by default; AGENTS=kilo runs Kilo, kilo.sh: a turn can take minutes)
#   scripts/agents/run.sh --record     also copy the transcripts the CLIs wrote, trimmed of vendor
#                                      prompt text and with placeholder paths, into
#                                      internal/transcript/testdata/agents/<agent>-<version>/
#   scripts/agents/run.sh --keep       keep the work directory and print where it is
#
# Needs: bash 4 and coreutils (Linux), script(1) from util-linux (Cline resumes a session only in
# its terminal UI), Go, npm (any Node; Node 22 is installed from npm into the cache), git, and the
# npm registry on the first run; about 1.5 GB in the cache. Environment:
# AGENTS, DREAMD_AGENTS_CACHE (default ${XDG_CACHE_HOME:-~/.cache}/dreamd-agents), TMPDIR.
#
# To bump a CLI: change its *_VERSION below, run `scripts/agents/run.sh --record`, delete the old
# testdata/agents/<agent>-<old version>/ directory and update the version in
# internal/transcript/agents_test.go, then `go test ./internal/transcript/`.
set -uo pipefail

CLAUDE_VERSION=2.1.332 # @anthropic-ai/claude-code
CODEX_VERSION=0.171.0  # @openai/codex
GEMINI_VERSION=0.61.0  # @google/gemini-cli
NODE_VERSION=22.23.3   # node (Claude Code wants >= 22)
# Each further agent's part is a file of its own beside this one (qwen.sh, copilot.sh, …), its
# functions named after the agent: <agent>_install, _bin, _env, _say, _prepare, _link.
for part in "$(dirname "$0")"/*.sh; do [ "$(basename "$part")" = run.sh ] || . "$part"; done

RECORD=0
KEEP=0
for arg in "$@"; do
	case $arg in
	--record) RECORD=1 ;;
	--keep) KEEP=1 ;;
	-h | --help)
		sed -n '2,/^set -uo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
		exit 0
		;;
	*)
		echo "run.sh: unknown argument $arg (see --help)" >&2
		exit 2
		;;
	esac
done

AGENTS=${AGENTS:-claude codex gemini qwen copilot cline opencode}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
CACHE=${DREAMD_AGENTS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dreamd-agents}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/dreamd-agents.XXXXXX")
WORK=$(cd "$WORK" && pwd -P)
BIN=$WORK/bin
FAKE_PID=
START=$(date +%s)
FAILED=0

cleanup() {
	[ -n "$FAKE_PID" ] && kill "$FAKE_PID" 2>/dev/null
	# A CLI may leave a helper of its own running after its turn (Cline's hub daemon, started
	# with --cwd inside the work directory): whatever names the work directory is this run's.
	pkill -f -- "$WORK/" 2>/dev/null
	if [ "$KEEP" = 1 ]; then
		echo "work directory kept: $WORK"
	else
		rm -rf "$WORK"
	fi
}
trap cleanup EXIT

say() { printf '%s\n' "$*" >&2; }

# type_into_ui SCREEN TEXT: print TEXT and Enter for a terminal UI under script(1) whose screen is
# logged to SCREEN, once it has taken the terminal (switched to the alternate screen): typed
# before, the text would be lost.
type_into_ui() {
	local screen=$1 text=$2 _
	for _ in $(seq 90); do
		grep -q $'\e\[?1049h' "$screen" && break
		sleep 1
	done
	sleep 3
	printf '%s' "$text"
	sleep 1
	printf '\r'
}

# report reads PASS/FAIL lines on stdin, prints them and counts the failures.
report() {
	local line
	while IFS= read -r line; do
		printf '%s\n' "$line"
		case $line in FAIL*) FAILED=$((FAILED + 1)) ;; esac
	done
}

# pass NAME / fail NAME WHY
pass() { printf 'PASS %s\n' "$1"; }
fail() {
	printf 'FAIL %s: %s\n' "$1" "$2"
	FAILED=$((FAILED + 1))
}

# install PACKAGE VERSION DIR BIN: npm install into $CACHE/DIR unless its bin is there already.
install() {
	local pkg=$1 version=$2 dir=$CACHE/$3 bin=$4
	if [ -x "$dir/node_modules/.bin/$bin" ]; then
		return 0
	fi
	say "installing $pkg@$version into $dir"
	mkdir -p "$dir"
	if ! npm install --prefix "$dir" --no-save --no-package-lock --no-audit --no-fund \
		"$pkg@$version" >"$dir.log" 2>&1; then
		say "npm install $pkg@$version failed; see $dir.log"
		tail -n 20 "$dir.log" >&2
		return 1
	fi
	[ -x "$dir/node_modules/.bin/$bin" ] || {
		say "$pkg@$version installed no $bin"
		return 1
	}
}

setup() {
	mkdir -p "$BIN" "$CACHE"
	install node "$NODE_VERSION" "node-$NODE_VERSION" node || exit 1
	NODE_BIN=$CACHE/node-$NODE_VERSION/node_modules/.bin
	say "building dreamd and fakeapi"
	(cd "$REPO" && go build -o "$BIN/dreamd" ./cmd/dreamd && go build -o "$BIN/fakeapi" ./scripts/agents/fakeapi &&
		go build -o "$BIN/agentcheck" ./scripts/agents/agentcheck) || exit 1
	"$BIN/fakeapi" -record "$WORK/requests" -addr-file "$WORK/addr" 2>"$WORK/fakeapi.log" &
	FAKE_PID=$!
	for _ in $(seq 50); do
		[ -s "$WORK/addr" ] && break
		sleep 0.1
	done
	ADDR=$(cat "$WORK/addr") || exit 1
	TODAY=$(date -u +%Y-%m-%d)
	# The person's messages (agentcheck holds them, for its checks).
	LESSON=$("$BIN/agentcheck" say lesson)
	RESUMED=$("$BIN/agentcheck" say resumed)
	DELEGATE=$("$BIN/agentcheck" say delegate)
	NEXT=$("$BIN/agentcheck" say next)
	RECALL=$("$BIN/agentcheck" say recall)
}


# agent_env AGENT: the environment every command of the agent runs in.
agent_env() {
	local home=$WORK/$1/home
	printf '%s\n' "HOME=$home" "PATH=$NODE_BIN:$BIN:$PATH" "TMPDIR=$WORK/$1/tmp" \
		"XDG_CONFIG_HOME=$home/.config" "XDG_DATA_HOME=$home/.local/share" "XDG_STATE_HOME=$home/.local/state" \
		"XDG_CACHE_HOME=$home/.cache" "NO_COLOR=1" "TERM=dumb" "CI=1"
	case $1 in
	claude)
		printf '%s\n' "ANTHROPIC_BASE_URL=http://$ADDR" "ANTHROPIC_API_KEY=fake-anthropic-key" \
			"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1" "DISABLE_AUTOUPDATER=1" "DISABLE_TELEMETRY=1"
		;;
	codex) printf '%s\n' "FAKE_OPENAI_KEY=fake-openai-key" ;;
	gemini)
		printf '%s\n' "GOOGLE_GEMINI_BASE_URL=http://$ADDR" "GEMINI_API_KEY=fake-gemini-key" \
			"GEMINI_CLI_TRUST_WORKSPACE=true" "GEMINI_CLI_NO_RELAUNCH=true"
		;;
	*) "${1}_env" ;;
	esac
}

# in_agent AGENT CMD...: run CMD in the agent's project (AGENT_CWD, default src/shop) with the
# agent's environment only.
in_agent() {
	local agent=$1
	shift
	local -a env
	mapfile -t env < <(agent_env "$agent")
	(cd "${AGENT_CWD:-$WORK/$agent/home/src/shop}" && env -i "${env[@]}" "$@")
}

# cli AGENT ARGS...: the agent's CLI, bounded in time; its output goes to the agent's log.
cli() {
	local agent=$1
	shift
	local bin
	case $agent in
	claude) bin=$CACHE/claude-$CLAUDE_VERSION/node_modules/.bin/claude ;;
	codex) bin=$CACHE/codex-$CODEX_VERSION/node_modules/.bin/codex ;;
	gemini) bin=$CACHE/gemini-$GEMINI_VERSION/node_modules/.bin/gemini ;;
	*) bin=$("${agent}_bin") ;;
	esac
	printf '\n$ %s %s\n' "$agent" "$*" >>"$WORK/$agent/cli.log"
	in_agent "$agent" timeout "${CLI_TIMEOUT:-180}" "$bin" "$@" </dev/null >>"$WORK/$agent/cli.log" 2>&1
}

# say_to AGENT MESSAGE [resume|default-approvals]: one headless turn of the person, a new session
# or the last one resumed. Codex runs without approvals and sandbox (the container may not allow
# its sandbox), except with default-approvals, where it approves what it approves by itself
# (read-only MCP tools).
say_to() {
	local agent=$1 msg=$2 resume=${3:-}
	[ "$resume" = default-approvals ] && resume=
	case $agent in
	claude)
		local -a r=()
		[ -n "$resume" ] && r=(--continue)
		cli claude -p "${r[@]}" --allowedTools "Bash(make lint)" Agent Task "mcp__dreamd" -- "$msg"
		;;
	codex)
		if [ -n "$resume" ]; then
			cli codex exec --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox resume --last "$msg"
		elif [ "${3:-}" = default-approvals ]; then
			cli codex exec --skip-git-repo-check "$msg"
		else
			cli codex exec --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox "$msg"
		fi
		;;
	gemini)
		local -a r=()
		[ -n "$resume" ] && r=(--resume latest)
		cli gemini --yolo --allowed-mcp-server-names dreamd "${r[@]}" -p "$msg"
		;;
	*) "${agent}_say" "$msg" "$resume" ;;
	esac
}

# prepare AGENT: a HOME with the agent configured for the fake endpoint and a project in src/shop.
prepare() {
	local agent=$1 home=$WORK/$1/home
	mkdir -p "$home/src/shop" "$WORK/$agent/tmp"
	printf 'package main\n\nfunc main() {}\n' >"$home/src/shop/main.go"
	printf '# shop\n' >"$home/src/shop/README.md"
	in_agent "$agent" git init -q
	in_agent "$agent" git add README.md main.go
	in_agent "$agent" git -c user.name=t -c user.email=t@example.com commit -qm init
	case $agent in
	codex)
		mkdir -p "$home/.codex"
		cat >"$home/.codex/config.toml" <<EOF
model = "gpt-5.1-codex"
model_provider = "fake"

[model_providers.fake]
name = "fake"
base_url = "http://$ADDR/v1"
env_key = "FAKE_OPENAI_KEY"
wire_api = "responses"
EOF
		;;
	gemini)
		mkdir -p "$home/.gemini"
		# The API key with GOOGLE_GEMINI_BASE_URL (its "gateway" auth is refused in headless mode); no
		# ripgrep (Gemini CLI would download it), no update checks, no usage statistics.
		cat >"$home/.gemini/settings.json" <<'EOF'
{
  "security": {"auth": {"selectedType": "gemini-api-key"}},
  "tools": {"useRipgrep": false},
  "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
  "privacy": {"usageStatisticsEnabled": false},
  "telemetry": {"enabled": false}
}
EOF
		;;
	claude) ;; # nothing beyond the environment (agent_env)
	*) "${agent}_prepare" "$home" ;;
	esac
}

# requests_since N: the request files fakeapi wrote after the Nth.
request_count() { find "$WORK/requests" -type f | wc -l; }
requests_after() {
	find "$WORK/requests" -type f | sort | tail -n +"$(($1 + 1))"
}

# sessions AGENT: the scripted sessions of the first part.
sessions() {
	local agent=$1
	say_to "$agent" "$LESSON" || say "$agent: the lesson session failed (see the log)"
	say_to "$agent" "$RESUMED" resume || say "$agent: the resumed session failed"
	say_to "$agent" "$DELEGATE" || say "$agent: the sub-agent session failed"
	commands_session "$agent" # commands.sh
	answers_session "$agent"  # answers.sh
	# Codex CLI runs its sub-agents in the background: let one finish writing.
	[ "$agent" = codex ] && sleep 3
}

# dreamd AGENT ARGS...: dreamd in the agent's HOME, offline unless the caller adds the endpoint.
dreamd_in() {
	local agent=$1
	shift
	in_agent "$agent" "$BIN/dreamd" "$@"
}

reads() {
	local agent=$1 dir=$WORK/$1
	local n
	dreamd_in "$agent" sessions --format json >"$dir/sessions.json" 2>"$dir/sessions.err"
	n=$(request_count)
	in_agent "$agent" env DREAMD_LLM_BASE_URL="http://$ADDR/v1" DREAMD_LLM_API_KEY=fake-dreamd-key \
		"$BIN/dreamd" run --once --dry-run >"$dir/dry-online.txt" 2>&1
	requests_after "$n" | grep -- '-dreamd.json$' >"$dir/digests.list"
	dreamd_in "$agent" run --once --dry-run >"$dir/dry-offline.txt" 2>&1
	report < <("$BIN/agentcheck" reads -agent "$agent" -project "$dir/home/src/shop" -today "$TODAY" \
		-sessions "$dir/sessions.json" -digests "$dir/digests.list" -dry-run "$dir/dry-offline.txt" \
		-home "$dir/home")
}

# gemini_promptlog: in a copy of the home as Gemini CLI left it, a session whose chats/ file is
# gone (its cleanup deleted it before any pass kept a link) is read from the folder's logs.json.
gemini_promptlog() {
	local copy=$WORK/gemini/promptlog
	rm -rf "$copy" && cp -a "$WORK/gemini/home.recorded" "$copy" || return
	report < <("$BIN/agentcheck" promptlog -home "$copy" -dreamd "$BIN/dreamd")
}

reaches() {
	local agent=$1 dir=$WORK/$1
	if ! dreamd_in "$agent" run --once >"$dir/run.txt" 2>&1; then
		fail "$agent reaches: dreamd run --once" "exit $? ($(tail -n 3 "$dir/run.txt"))"
	fi
	# This direction checks what dreamd links, whatever it read: when the pass made no memory of
	# the lesson (a reads check has failed already), the lesson is remembered by hand.
	local store
	store=$(find "$dir/home/.claude/projects" -path '*/memory/MEMORY.md' 2>/dev/null | head -n 1)
	if [ -z "$store" ] || ! grep -q "make lint" "$store"; then
		say "$agent: the pass wrote no memory of the lesson; remembering it with dreamd remember --now"
		dreamd_in "$agent" remember --type feedback --now "$("$BIN/agentcheck" say memory)" >>"$dir/run.txt" 2>&1 ||
			fail "$agent reaches: dreamd remember --now" "$(tail -n 3 "$dir/run.txt")"
	fi
	# A preference for every project goes to the user store (its own pass merges it), which each
	# link carries too.
	dreamd_in "$agent" remember --type user --now "$("$BIN/agentcheck" say user)" >>"$dir/run.txt" 2>&1 ||
		fail "$agent reaches: dreamd remember --type user --now" "$(tail -n 3 "$dir/run.txt")"
	dreamd_in "$agent" run --once >>"$dir/run.txt" 2>&1 ||
		fail "$agent reaches: dreamd run --once (the user store)" "$(tail -n 3 "$dir/run.txt")"
	case $agent in
	claude)
		dreamd_in claude link claude --user >"$dir/link.txt" 2>&1 || fail "claude reaches: dreamd link claude --user" "$(cat "$dir/link.txt")"
		cli claude mcp add --scope user dreamd -- "$BIN/dreamd" mcp
		;;
	codex)
		dreamd_in codex link codex >"$dir/link.txt" 2>&1 || fail "codex reaches: dreamd link codex" "$(cat "$dir/link.txt")"
		cli codex mcp add dreamd -- "$BIN/dreamd" mcp
		;;
	gemini)
		dreamd_in gemini link gemini >"$dir/link.txt" 2>&1 || fail "gemini reaches: dreamd link gemini" "$(cat "$dir/link.txt")"
		cli gemini mcp add --scope user dreamd "$BIN/dreamd" mcp
		;;
	*) "${agent}_link" ;;
	esac
	local n
	n=$(request_count)
	say_to "$agent" "$NEXT"
	requests_after "$n" >"$dir/next.list"
	# A CLI may start its session before the MCP server has answered (seen with Claude Code on a
	# busy machine): then the tool is not offered. A second try tells that from a tool that fails.
	local attempt
	for attempt in 1 2; do
		n=$(request_count)
		say_to "$agent" "$RECALL" default-approvals
		requests_after "$n" >"$dir/recall.list"
		"$BIN/agentcheck" reaches -agent "$agent" -next "$dir/next.list" -recall "$dir/recall.list" >"$dir/reaches.txt"
		grep -q '^FAIL.*the CLI sent no tool result' "$dir/reaches.txt" || break
		[ "$attempt" = 1 ] && say "$agent: the recall tool was not called (the MCP server not up yet?); trying once more"
	done
	report <"$dir/reaches.txt"
	# The sessions after the link ran with dreamd's block in the CLI's prompt: a pass over them must
	# not read it back as material (Copilot CLI writes its whole system prompt into the session).
	n=$(request_count)
	in_agent "$agent" env DREAMD_LLM_BASE_URL="http://$ADDR/v1" DREAMD_LLM_API_KEY=fake-dreamd-key \
		"$BIN/dreamd" run --once --dry-run >"$dir/readback.txt" 2>&1
	requests_after "$n" | grep -- '-dreamd.json$' >"$dir/readback.list"
	report < <("$BIN/agentcheck" readback -agent "$agent" -digests "$dir/readback.list")
}

# claude_paths: Claude Code projects whose folder name is not the plain one (every character but
# a letter or digit as "-"): a non-ASCII path, and a path over 200 characters (Claude Code cuts
# it and appends a hash). dreamd must read each session into the folder Claude Code keeps the
# project in, whose memory/ Claude Code loads.
claude_paths() {
	local dir=$WORK/claude home=$WORK/claude/home
	local cafe=$home/src/café
	local long=$home/src/$(printf 'a-long-directory-name-for-folder-names-%02d/' 1 2 3 4 5)shop
	mkdir -p "$cafe" "$long" "$home/src/moved-from"
	AGENT_CWD=$cafe say_to claude "$LESSON"
	AGENT_CWD=$long say_to claude "$LESSON"
	# A project that moved: Claude Code appends the resumed session to the file in the old
	# project's folder, with the new cwd.
	AGENT_CWD=$home/src/moved-from say_to claude "$LESSON"
	local moved
	moved=$(basename "$(find "$home/.claude/projects" -path '*moved-from/*.jsonl' | head -n 1)" .jsonl)
	mv "$home/src/moved-from" "$home/src/moved-to"
	AGENT_CWD=$home/src/moved-to cli claude -p --resume "$moved" -- "$RESUMED"
	dreamd_in claude sessions --format json >"$dir/paths-sessions.json" 2>/dev/null
	dreamd_in claude run --once >"$dir/paths-run.txt" 2>&1
	local n
	n=$(request_count)
	AGENT_CWD=$cafe say_to claude "$NEXT"
	requests_after "$n" >"$dir/next-cafe.list"
	n=$(request_count)
	AGENT_CWD=$long say_to claude "$NEXT"
	requests_after "$n" >"$dir/next-long.list"
	report < <("$BIN/agentcheck" paths -sessions "$dir/paths-sessions.json" \
		-project "non-ASCII path=$cafe@$dir/next-cafe.list" \
		-project "path over 200 characters=$long@$dir/next-long.list")
}

record() {
	local agent=$1 version dest
	declare -F "${agent}_record" >/dev/null && { "${agent}_record"; return; }
	case $agent in
	claude) version=$CLAUDE_VERSION ;;
	codex) version=$CODEX_VERSION ;;
	gemini) version=$GEMINI_VERSION ;;
	*) version=$(v=${agent^^}_VERSION && printf '%s' "${!v}") ;;
	esac
	dest=$REPO/internal/transcript/testdata/agents/$agent-$version
	rm -rf "$dest"
	report < <("$BIN/agentcheck" record -agent "$agent" -home "$WORK/$agent/home.recorded" -out "$dest" -today "$TODAY")
}

main() {
	setup
	for agent in $AGENTS; do
		local t0 version
		t0=$(date +%s)
		case $agent in
		claude) install @anthropic-ai/claude-code "$CLAUDE_VERSION" "claude-$CLAUDE_VERSION" claude ;;
		codex) install @openai/codex "$CODEX_VERSION" "codex-$CODEX_VERSION" codex ;;
		gemini) install @google/gemini-cli "$GEMINI_VERSION" "gemini-$GEMINI_VERSION" gemini ;;
		*)
			if ! declare -F "${agent}_install" >/dev/null; then
				fail "$agent" "unknown agent (claude, codex, gemini, or one with a scripts/agents/$agent.sh)"
				continue
			fi
			"${agent}_install"
			;;
		esac || {
			fail "$agent install" "see the npm output above"
			continue
		}
		say "== $agent"
		prepare "$agent"
		sessions "$agent"
		# What the CLI wrote, before dreamd or the second part touch anything.
		cp -a "$WORK/$agent/home" "$WORK/$agent/home.recorded"
		reads "$agent"
		[ "$agent" = gemini ] && gemini_promptlog
		reaches "$agent"
		[ "$agent" = claude ] && claude_paths
		[ "$RECORD" = 1 ] && record "$agent"
		say "$agent: $(($(date +%s) - t0)) s"
	done
	say "total: $(($(date +%s) - START)) s"
	if [ "$FAILED" -gt 0 ]; then
		echo "$FAILED check(s) failed"
		exit 1
	fi
	echo "all checks passed"
}

main "$@"; exit
