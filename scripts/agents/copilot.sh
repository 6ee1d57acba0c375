# copilot.sh — GitHub Copilot CLI's part of scripts/agents/run.sh (sourced by it): how it is
# installed, pointed at fakeapi, driven and linked. Copilot CLI needs no GitHub login with a
# custom provider ("BYOK": COPILOT_PROVIDER_BASE_URL, OpenAI Chat Completions by default) and
# COPILOT_OFFLINE=true (no GitHub authentication, telemetry, GitHub MCP server or update). It
# writes ~/.copilot/session-state/<session>/events.jsonl and workspace.yaml.

COPILOT_VERSION=1.0.102 # @github/copilot

copilot_install() { install @github/copilot "$COPILOT_VERSION" "copilot-$COPILOT_VERSION" copilot; }

copilot_bin() { printf '%s\n' "$CACHE/copilot-$COPILOT_VERSION/node_modules/.bin/copilot"; }

copilot_env() {
	printf '%s\n' "COPILOT_OFFLINE=true" "COPILOT_PROVIDER_BASE_URL=http://$ADDR/v1" "COPILOT_PROVIDER_API_KEY=fake-openai-key" \
		"COPILOT_MODEL=gpt-4.1" "COPILOT_AUTO_UPDATE=false"
}

# copilot_say MESSAGE [resume]: one headless turn (-p needs --allow-all-tools), --continue
# resumes the last session.
copilot_say() {
	local -a r=()
	[ -n "${2:-}" ] && r=(--continue)
	cli copilot "${r[@]}" --allow-all-tools --disable-client-telemetry -p "$1"
}

copilot_prepare() { :; }

# copilot_link: dreamd's memory into .github/copilot-instructions.md, dreamd's MCP server into
# ~/.copilot/mcp-config.json.
copilot_link() {
	dreamd_in copilot link copilot >"$WORK/copilot/link.txt" 2>&1 || fail "copilot reaches: dreamd link copilot" "$(cat "$WORK/copilot/link.txt")"
	cli copilot mcp add dreamd -- "$BIN/dreamd" mcp
}
