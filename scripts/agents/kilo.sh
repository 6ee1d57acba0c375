# kilo.sh — Kilo's part of scripts/agents/run.sh (sourced by it). Kilo's CLI (npm package
# `@kilocode/cli`) is OpenCode's under its own names: the config ~/.config/kilo/kilo.json, the
# database ~/.local/share/kilo/kilo.db, KILO_* variables; the rest is opencode.sh's (ocstyle_*).
# 7.7.7 is pinned: 7.8.1's platform package (@kilocode/cli-linux-x64) is not on the registry.

KILO_VERSION=7.7.7 # @kilocode/cli

kilo_install() { install @kilocode/cli "$KILO_VERSION" "kilo-$KILO_VERSION" kilo; }

kilo_bin() { printf '%s\n' "$CACHE/kilo-$KILO_VERSION/node_modules/.bin/kilo"; }

kilo_env() {
	printf '%s\n' "KILO_DISABLE_MODELS_FETCH=1" "OPENCODE_DISABLE_MODELS_FETCH=1" "KILO_DISABLE_AUTOUPDATE=1"
}

# kilo_say MESSAGE [resume]: a Kilo turn took more than 150 s on a loaded machine, hence the
# longer bound.
kilo_say() { CLI_TIMEOUT=420 ocstyle_say kilo "$@"; }

kilo_prepare() { ocstyle_prepare "$1/.config/kilo/kilo.json"; }

kilo_link() { ocstyle_link kilo "$WORK/kilo/home/.config/kilo/kilo.json"; }

kilo_record() { ocstyle_record kilo; }
