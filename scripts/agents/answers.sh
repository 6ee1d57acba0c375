# answers.sh — the question session of run.sh (not an agent): the person asks to be asked which
# chart library the dashboard should use; fakeapi's script calls the CLI's structured-question
# tool (fakeapi/questions.go: Recharts or Chart.js) and the person picks the second option,
# Chart.js, in the CLI's terminal UI: every CLI offers its tool, or lets it ask, only there
# (Codex CLI's exec refuses request_user_input, Qwen Code's headless run answers that it cannot
# ask, Claude Code, Gemini CLI, Copilot CLI and OpenCode do not offer theirs headless). Cline CLI offers
# ask_question headless too, and answers it itself with the first option: its session asks once
# headless (nobody's answer) and once more resumed in the terminal UI, where the person answers.
# agentcheck/answers.go checks what an offline pass makes of it. Claude Code's -p offers no
# AskUserQuestion: its terminal UI does. Kilo has no question session here.

# ANSWERING_AGENTS are the agents with a question session.
ANSWERING_AGENTS="claude codex gemini qwen copilot opencode cline"

answers_session() {
	local agent=$1 msg q bin
	case " $ANSWERING_AGENTS " in *" $agent "*) ;; *) return 0 ;; esac
	msg=$("$BIN/agentcheck" say question)
	q=$(printf '%q' "$msg")
	case $agent in
	claude)
		# Its terminal UI asks, before anything, to finish onboarding, to use the key of the
		# environment and to trust the project: answered in ~/.claude.json.
		in_agent claude "$NODE_BIN/node" -e 'const fs = require("fs"), [file, dir, key] = process.argv.slice(1);
let c = {}; try { c = JSON.parse(fs.readFileSync(file, "utf8")) } catch {}
c.hasCompletedOnboarding = true; c.theme = c.theme || "dark";
c.customApiKeyResponses = {approved: [key], rejected: []};
c.projects = c.projects || {}; c.projects[dir] = {...c.projects[dir], hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true};
fs.writeFileSync(file, JSON.stringify(c, null, 2))' "$WORK/claude/home/.claude.json" "$WORK/claude/home/src/shop" fake-anthropic-key
		answers_tui claude AskUserQuestion '\e[B \r' "$CACHE/claude-$CLAUDE_VERSION/node_modules/.bin/claude $q"
		;;
	codex)
		# request_user_input outside Plan mode, and the project trusted (else the terminal UI
		# asks first), in the config: its background server refuses a -c override it was not
		# started with.
		printf '\n[features]\ndefault_mode_request_user_input = true\n\n[projects."%s"]\ntrust_level = "trusted"\n' \
			"$WORK/codex/home/src/shop" >>"$WORK/codex/home/.codex/config.toml"
		bin=$CACHE/codex-$CODEX_VERSION/node_modules/.bin/codex
		answers_tui codex request_user_input '2' "$bin --dangerously-bypass-approvals-and-sandbox $q"
		;;
	gemini) answers_tui gemini ask_user '\e[B \r' "$CACHE/gemini-$GEMINI_VERSION/node_modules/.bin/gemini -i $q" ;;
	qwen)
		answers_tui qwen ask_user_question '\e[B \r' "$(qwen_bin) -i $q --auth-type openai --openai-base-url http://$ADDR/v1 \
--openai-api-key fake-openai-key --model qwen3-coder-plus --yolo"
		;;
	copilot)
		# The project trusted, else the terminal UI asks first.
		in_agent copilot "$NODE_BIN/node" -e 'const fs = require("fs"), [file, dir] = process.argv.slice(1);
let c = {}; try { c = JSON.parse(fs.readFileSync(file, "utf8")) } catch {}
c.trusted_folders = [...(c.trusted_folders || []), dir]; fs.writeFileSync(file, JSON.stringify(c, null, 2))' \
			"$WORK/copilot/home/.copilot/config.json" "$WORK/copilot/home/src/shop"
		answers_tui copilot ask_user '\e[B \r' "$(copilot_bin) --allow-all-tools --disable-client-telemetry -i $q"
		;;
	opencode) answers_tui opencode question '\e[B \r' "$(opencode_bin) --model fake/gpt-4o --prompt $q" ;;
	cline)
		cli cline "$msg" # headless: Cline picks the first option itself
		local sessions=$WORK/cline/home/.cline/data/sessions
		answers_tui cline ask_question '\e[B \r' "$(cline_bin) --id $(ls "$sessions" | sort | tail -n 1)" "$msg"
		;;
	esac || say "$agent: the question session failed (see the log)"
}

# answers_tui AGENT TOOL KEYS COMMAND [TYPED]: COMMAND (the CLI's terminal UI, given a terminal by
# script(1)), with TYPED typed into it once it is up; once fakeapi has called TOOL, KEYS (the
# person's choice: printf strings, separated by spaces, sent one at a time), and once the CLI has
# sent the answer back, what ends each UI (two Ctrl-C; Qwen Code's /quit).
answers_tui() {
	local agent=$1 tool=$2 keys=$3 command=$4 typed=${5:-} log=$WORK/fakeapi.log screen=$WORK/$1/answers-tui.log
	local asked quit='\003 \003'
	[ "$agent" = qwen ] && quit='/quit \r' # its two Ctrl-C do not end it
	asked=$(grep -c -- "→ tool $tool " "$log")
	printf '\n$ %s (terminal UI, its screen in answers-tui.log)\n' "$command" >>"$WORK/$agent/cli.log"
	: >"$screen"
	{
		local _ lines key ks
		[ -z "$typed" ] || type_into_ui "$screen" "$typed"
		for _ in $(seq 120); do
			[ "$(grep -c -- "→ tool $tool " "$log")" -gt "$asked" ] && break
			sleep 1
		done
		sleep 4 # the dialog drawn
		lines=$(wc -l <"$log")
		read -ra ks <<<"$keys"
		for key in "${ks[@]}"; do # one at a time: an arrow and an Enter in one write are not two keys to some
			printf "$key"
			sleep 2
		done
		for _ in $(seq 60); do
			tail -n +"$((lines + 1))" "$log" | grep -q 'result=true' && break
			sleep 1
		done
		sleep 3
		read -ra ks <<<"$quit"
		for key in "${ks[@]}"; do
			printf "$key"
			sleep 1.5
		done
		sleep 2
	} | in_agent "$agent" env -u CI TERM=xterm-256color timeout 240 script -qfc "stty rows 50 cols 160; $command" /dev/null >"$screen" 2>&1
	# Without CI (set for every other command) the UIs draw their dialogs; without COLUMNS and
	# LINES (a fixed size by stty instead) Gemini CLI's dialog is not cancelled as it opens.
	[ "$(grep -c -- "→ tool $tool " "$log")" -gt "$asked" ] || {
		say "$agent: fakeapi never called $tool (see $agent/answers-tui.log)"
		return 1
	}
}
