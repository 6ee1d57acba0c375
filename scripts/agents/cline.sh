# cline.sh — Cline CLI's part of scripts/agents/run.sh (sourced by it; uses its functions).
#
# Cline CLI 3.x (npm package `cline`) runs headless as `cline "PROMPT"` (act mode, tools approved)
# against an OpenAI-compatible provider set up with `cline auth`. It writes each session to
# ~/.cline/data/sessions/<id>/<id>.messages.json, rewritten whole as it grows, beside <id>.json
# (cwd, start) and a sub-agent's agent_*.messages.json. Its shell tool is run_commands, its
# sub-agent tool spawn_agent.

CLINE_VERSION=3.0.65 # cline

cline_install() { install cline "$CLINE_VERSION" "cline-$CLINE_VERSION" cline; }

cline_bin() { printf '%s\n' "$CACHE/cline-$CLINE_VERSION/node_modules/.bin/cline"; }

# The endpoint is set up by cline_prepare in Cline's own settings: nothing in the environment.
cline_env() { :; }

# cline_prepare HOME: the fake endpoint as Cline's provider (written to ~/.cline/data/settings).
cline_prepare() {
	cli cline auth -p openai-compatible -k fake-openai-key -m gpt-4o -b "http://$ADDR/v1"
}

# cline_say MESSAGE [resume]: one turn of the person, in a new session or the last one resumed.
# Cline 3.0 resumes a session (--id) only in its terminal UI, which wants a terminal: script(1)
# gives it one, the message is typed into it, and its input is closed (which ends it) once the
# answer is in the session's file.
cline_say() {
	local msg=$1 resume=${2:-}
	if [ -z "$resume" ]; then
		cli cline "$msg"
		return
	fi
	local sessions=$WORK/cline/home/.cline/data/sessions id file answers
	id=$(ls "$sessions" | sort | tail -n 1)
	file=$sessions/$id/$id.messages.json
	answers=$(grep -c '"role": "assistant"' "$file")
	local screen=$WORK/cline/tui.log
	: >"$screen"
	printf '\n$ cline --id %s (terminal UI, its screen in tui.log) <<< %s\n' "$id" "$msg" >>"$WORK/cline/cli.log"
	{
		local _
		type_into_ui "$screen" "$msg"
		for _ in $(seq 60); do
			[ "$(grep -c '"role": "assistant"' "$file")" -gt "$answers" ] && break
			sleep 1
		done
		sleep 2
	} | in_agent cline env TERM=xterm COLUMNS=200 LINES=50 timeout 180 \
		script -qfc "$(cline_bin) --id $id" /dev/null >"$screen" 2>&1
	grep -q "$(printf '%s' "$msg" | head -c 40)" "$file" || {
		say "cline: the resumed message is not in $file (see cline/tui.log)"
		return 1
	}
}

# cline_link: dreamd's memory where Cline reads rules (dreamd link cline), and dreamd's MCP server.
cline_link() {
	local dir=$WORK/cline
	dreamd_in cline link cline >"$dir/link.txt" 2>&1 || fail "cline reaches: dreamd link cline" "$(cat "$dir/link.txt")"
	cli cline mcp add dreamd --yes -- "$BIN/dreamd" mcp
}
