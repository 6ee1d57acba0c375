# qwen.sh — Qwen Code's part of scripts/agents/run.sh (sourced by it): how it is installed, pointed
# at fakeapi, driven and linked. Qwen Code speaks OpenAI Chat Completions to OPENAI_BASE_URL
# (--auth-type openai), writes ~/.qwen/projects/<slug>/chats/<session>.jsonl and a sub-agent's
# transcript under <slug>/subagents/.

QWEN_VERSION=0.24.4 # @qwen-code/qwen-code

qwen_install() { install @qwen-code/qwen-code "$QWEN_VERSION" "qwen-$QWEN_VERSION" qwen; }

qwen_bin() { printf '%s\n' "$CACHE/qwen-$QWEN_VERSION/node_modules/.bin/qwen"; }

# The endpoint goes in flags (qwen_say), not in OPENAI_BASE_URL and OPENAI_API_KEY: dreamd, run in
# the same environment, reads those too and would consolidate through fakeapi.
qwen_env() { printf '%s\n' "QWEN_CODE_SUPPRESS_YOLO_WARNING=1"; }

# qwen_say MESSAGE [resume]: one headless turn, --continue resumes the project's last session.
# The message goes first: --allowed-mcp-server-names takes every word after it.
qwen_say() {
	local -a r=()
	[ -n "${2:-}" ] && r=(--continue)
	cli qwen "$1" --auth-type openai --openai-base-url "http://$ADDR/v1" --openai-api-key fake-openai-key \
		--model qwen3-coder-plus --yolo "${r[@]}" --allowed-mcp-server-names dreamd
}

qwen_prepare() {
	mkdir -p "$1/.qwen"
	# No usage statistics, no update checks.
	cat >"$1/.qwen/settings.json" <<'JSON'
{
  "privacy": {"usageStatisticsEnabled": false},
  "telemetry": {"enabled": false},
  "general": {"enableAutoUpdate": false, "disableAutoUpdate": true, "disableUpdateNag": true}
}
JSON
}

# qwen_link: dreamd's memory into QWEN.md, dreamd's MCP server into ~/.qwen/settings.json.
qwen_link() {
	dreamd_in qwen link qwen >"$WORK/qwen/link.txt" 2>&1 || fail "qwen reaches: dreamd link qwen" "$(cat "$WORK/qwen/link.txt")"
	cli qwen mcp add --scope user dreamd "$BIN/dreamd" mcp
}
