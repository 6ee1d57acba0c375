# opencode.sh — OpenCode's part of scripts/agents/run.sh (sourced by it; uses its functions), and
# the functions Kilo's part (kilo.sh) shares with it: Kilo's CLI is OpenCode's, with its own names.
#
# OpenCode 1.x (npm package `opencode-ai`) runs headless as `opencode run MESSAGE…` against a
# provider of its config file (~/.config/opencode/opencode.json): here an
# `@ai-sdk/openai-compatible` one pointing at fakeapi's Chat Completions. It keeps every session of
# every project in one SQLite database, $XDG_DATA_HOME/opencode/opencode.db (tables session,
# message, part; WAL mode), which dreamd's `opencode` source kind reads. Its shell tool is bash,
# its sub-agent tool task (a child session with a parent_id).

OPENCODE_VERSION=1.18.33 # opencode-ai

opencode_install() { install opencode-ai "$OPENCODE_VERSION" "opencode-$OPENCODE_VERSION" opencode; }

opencode_bin() { printf '%s\n' "$CACHE/opencode-$OPENCODE_VERSION/node_modules/.bin/opencode"; }

# No models.dev fetch (the list of models comes from the config), no update check.
opencode_env() { printf '%s\n' "OPENCODE_DISABLE_MODELS_FETCH=1" "OPENCODE_DISABLE_AUTOUPDATE=1"; }

# opencode_say MESSAGE [resume]
opencode_say() { ocstyle_say opencode "$@"; }

opencode_prepare() { ocstyle_prepare "$1/.config/opencode/opencode.json"; }

# opencode_link: dreamd's memory into AGENTS.md (dreamd link opencode), its MCP server into the
# config.
opencode_link() { ocstyle_link opencode "$WORK/opencode/home/.config/opencode/opencode.json"; }

# ocstyle_say AGENT MESSAGE [resume]: one headless turn, --continue resumes the project's last
# session. `run` stores one argument holding spaces as a quoted string, so the message goes as
# separate words (as a person types them after `opencode run`).
ocstyle_say() {
	local agent=$1 msg=$2 resume=${3:-}
	local -a words r=()
	read -ra words <<<"$msg"
	[ -n "$resume" ] && r=(--continue)
	cli "$agent" run --model fake/gpt-4o "${r[@]}" -- "${words[@]}"
}

# ocstyle_prepare CONFIG [DREAMD]: fakeapi's Chat Completions as the only provider; with DREAMD,
# `DREAMD mcp` as an MCP server too (OpenCode 1.x: mcp.<name> = {type: local, command: [...]}).
ocstyle_prepare() {
	local mcp=
	[ -n "${2:-}" ] && mcp=$(printf ',\n  "mcp": {"dreamd": {"type": "local", "command": ["%s", "mcp"], "enabled": true}}' "$2")
	mkdir -p "$(dirname "$1")"
	cat >"$1" <<JSON
{
  "\$schema": "https://opencode.ai/config.json",
  "autoupdate": false,
  "share": "disabled",
  "model": "fake/gpt-4o",
  "provider": {
    "fake": {
      "npm": "@ai-sdk/openai-compatible",
      "name": "fake",
      "options": {"baseURL": "http://$ADDR/v1", "apiKey": "fake-openai-key"},
      "models": {"gpt-4o": {"name": "gpt-4o", "tool_call": true}}
    }
  }$mcp
}
JSON
}

# ocstyle_link AGENT CONFIG: dreamd link AGENT, and dreamd's MCP server added to the config.
ocstyle_link() {
	local agent=$1 config=$2 dir=$WORK/$1
	dreamd_in "$agent" link "$agent" >"$dir/link.txt" 2>&1 || fail "$agent reaches: dreamd link $agent" "$(cat "$dir/link.txt")"
	ocstyle_prepare "$config" "$BIN/dreamd"
}

# opencode_record: --record copies no database. The recorded databases are SQL dumps, made by hand
# (internal/transcript/testdata/database/<agent>-<version>.sql, read by TestRecordedDatabases).
opencode_record() { ocstyle_record opencode; }

ocstyle_record() {
	say "$1: not recorded: its sessions are a SQLite database; internal/transcript/testdata/database/ holds hand-made dumps"
}
