# commands.sh — the commands session of run.sh (not an agent): the person asks to run the
# frontend tests; fakeapi's script runs `pnpm test` (the shell has no pnpm), then `npm test`, in
# the project's frontend/, whose package.json has a test script that passes, each CLI in its own
# working-directory shape (fakeapi/commands.go). agentcheck/commands.go checks what an offline
# pass makes of it.

commands_session() {
	local agent=$1 project=$WORK/$1/home/src/shop msg
	mkdir -p "$project/frontend"
	cat >"$project/frontend/package.json" <<'JSON'
{
  "name": "shop-frontend",
  "version": "1.0.0",
  "private": true,
  "scripts": {"test": "node -e \"console.log('3 tests passed')\""}
}
JSON
	msg=$("$BIN/agentcheck" say commands)
	case $agent in
	claude) cli claude -p --allowedTools "Bash(cd frontend)" "Bash(pnpm test)" "Bash(npm test)" -- "$msg" ;;
	*) say_to "$agent" "$msg" ;;
	esac || say "$agent: the commands session failed (see the log)"
}
