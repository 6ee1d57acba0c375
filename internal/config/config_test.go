package config

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// isolate points HOME and the XDG directories at a temporary directory and clears DREAMD_*.
func isolate(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", "")
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "DREAMD_") {
			t.Setenv(k, "")
			os.Unsetenv(k)
		}
	}
	return home
}

func writeFile(t *testing.T, dir, body string) string {
	t.Helper()
	p := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDefaults(t *testing.T) {
	home := isolate(t)
	c, err := Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Schedule != "@hourly" || c.Gates.MinSessions != 5 || c.LLM.Model != "gpt-4o-mini" ||
		c.LLM.Timeout != 120*time.Second || c.Limits.IndexMaxLines != 200 || c.Apply != "auto" {
		t.Errorf("unexpected defaults: %+v", c)
	}
	if want := filepath.Join(home, ".local", "state", "dreamd"); c.StateDir != want {
		t.Errorf("StateDir = %q, want %q", c.StateDir, want)
	}
	if want := filepath.Join(home, ".claude", "projects"); c.Store.Root != want || c.Sources[0].Path != want {
		t.Errorf("claude paths = %q, %q", c.Store.Root, c.Sources[0].Path)
	}
	if !c.LLM.UseOffline() {
		t.Error("no endpoint configured, yet not offline")
	}
}

func TestPrecedence(t *testing.T) {
	dir := isolate(t)
	file := writeFile(t, dir, "llm: {model: from-file, max_retries: 7}\nlog: {level: warn}\n")

	t.Setenv("DREAMD_LLM_MODEL", "from-env")
	flags := pflag.NewFlagSet("x", pflag.ContinueOnError)
	flags.String("log-level", "info", "")
	if err := flags.Parse([]string{"--log-level", "debug"}); err != nil {
		t.Fatal(err)
	}
	c, err := Load(file, flags)
	if err != nil {
		t.Fatal(err)
	}
	if c.LLM.Model != "from-env" {
		t.Errorf("env should beat file: model = %q", c.LLM.Model)
	}
	if c.LLM.MaxRetries != 7 {
		t.Errorf("file should beat default: max_retries = %d", c.LLM.MaxRetries)
	}
	if c.Log.Level != "debug" {
		t.Errorf("flag should beat file: level = %q", c.Log.Level)
	}
}

func TestAPIKeyFromEnvironment(t *testing.T) {
	isolate(t)
	t.Setenv("OPENAI_API_KEY", "sk-test")
	c, err := Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.LLM.APIKey != "sk-test" || c.LLM.UseOffline() {
		t.Errorf("api key = %q", c.LLM.APIKey)
	}
	t.Setenv("DREAMD_LLM_API_KEY", "sk-dreamd")
	if c, _ = Load("", nil); c.LLM.APIKey != "sk-dreamd" {
		t.Errorf("DREAMD_LLM_API_KEY should win: %q", c.LLM.APIKey)
	}
	t.Setenv("OPENAI_BASE_URL", "http://localhost:11434/v1")
	if c, _ = Load("", nil); c.LLM.BaseURL != "http://localhost:11434/v1" {
		t.Errorf("OPENAI_BASE_URL: base_url = %q", c.LLM.BaseURL)
	}
}

func TestRelativePathsFollowTheFile(t *testing.T) {
	dir := isolate(t)
	file := writeFile(t, dir, "store: {mode: fixed, path: mem}\nsources: [{kind: chat, path: chats, project: proj}]\nstate_dir: st\n")
	c, err := Load(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	for got, want := range map[string]string{
		c.Store.Path:         filepath.Join(dir, "mem"),
		c.Sources[0].Path:    filepath.Join(dir, "chats"),
		c.Sources[0].Project: filepath.Join(dir, "proj"),
		c.StateDir:           filepath.Join(dir, "st"),
	} {
		if got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}

func TestErrorsNameTheKey(t *testing.T) {
	tests := []struct {
		name, yaml, key string
	}{
		{"unknown top-level", "colour: blue\n", "colour"},
		{"unknown nested", "llm: {modle: x}\n", "llm.modle"},
		{"unknown in a list", "sources: [{kind: claude, path: /x}, {kind: codex, path: /y, pth: z}]\n", "sources[1].pth"},
		{"unknown in two places", "store: {mode: claude, bogus: 1}\ngates: {often: 2}\n", "gates.often, store.bogus"},
		{"bad schedule", "schedule: every tuesday\n", "schedule"},
		{"schedule that panics the parser", "schedule: TZ=UTC\n", "schedule"},
		{"bad duration", "llm: {timeout: soon}\n", "llm.timeout"},
		{"bad duration, offline", "llm: {offline: true, timeout: soon}\n", "llm.timeout"},
		{"state_dir that is a file", "state_dir: config.yaml\n", "state_dir"},
		{"user store that is a file", "store: {user: {path: config.yaml}}\n", "store.user.path"},
		{"fixed store that is a file", "store: {mode: fixed, path: config.yaml}\n", "store.path"},
		{"projects root that is a file", "store: {root: config.yaml}\n", "store.root"},
		{"team repository that is a file", "store: {team: {repo: config.yaml}}\n", "store.team.repo"},
		{"bad team type, team off", "store: {team: {types: [gossip]}}\n", "store.team.types"},
		{"timeout of a year", "llm: {timeout: 8760h}\n", "llm.timeout"},
		{"timeout under a second", "llm: {timeout: 5ms}\n", "llm.timeout"},
		{"bad number", "gates: {min_sessions: many}\n", "gates.min_sessions"},
		{"negative session cap", "gather: {max_sessions_per_pass: -1}\n", "gather.max_sessions_per_pass"},
		{"unknown gather key", "gather: {max_files: 3}\n", "gather.max_files"},
		{"NaN gate", "gates: {min_hours: .nan}\n", "gates.min_hours"},
		{"infinite idle", "gates: {idle_minutes: .inf}\n", "gates.idle_minutes"},
		{"schedule every second", "schedule: '@every 0s'\n", "schedule"},
		{"schedule every 500ms", "schedule: '@every 500ms'\n", "schedule"},
		{"bad kind", "sources: [{kind: vim, path: /x}]\n", "sources[0].kind"},
		{"project required", "sources: [{kind: chat, path: /x}]\n", "sources[0].project"},
		{"bad mode", "store: {mode: cloud}\n", "store.mode"},
		{"fixed needs path", "store: {mode: fixed}\n", "store.path"},
		{"bad base url", "llm: {base_url: localhost:8080}\n", "llm.base_url"},
		{"bad fraction", "limits: {max_retire_fraction: 2}\n", "limits.max_retire_fraction"},
		{"NaN fraction", "limits: {max_retire_fraction: .nan}\n", "limits.max_retire_fraction"},
		{"negative unused_days", "prune: {unused_days: -1}\n", "prune.unused_days"},
		{"history kept for no run", "history: {keep_runs: 0}\n", "history.keep_runs"},
		{"negative archive days", "archive: {keep_days: -1}\n", "archive.keep_days"},
		{"ttl that overflows", "prune: {ttl: {project: 213504d}}\n", "prune.ttl.project"},
		{"bad ttl", "prune: {ttl: {project: soon}}\n", "prune.ttl.project"},
		{"bad ttl type", "prune: {ttl: {gossip: 1d}}\n", "prune.ttl.gossip"},
		{"bad apply", "apply: sometimes\n", "apply"},
		{"web view on every interface", "ui: {listen: '0.0.0.0:8377'}\n", "ui.listen"},
		{"web view on a LAN address", "ui: {listen: '192.168.1.5:8377'}\n", "ui.listen"},
		{"web view without a port", "ui: {listen: '127.0.0.1'}\n", "ui.listen"},
		{"bad level", "log: {level: loud}\n", "log.level"},
		{"bad pattern", "redact: {patterns: ['(']}\n", "redact.patterns[0]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := isolate(t)
			_, err := Load(writeFile(t, dir, tt.yaml), nil)
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("err = %v, want a *config.Error", err)
			}
			if ce.Key != tt.key {
				t.Errorf("error %q names key %q, want %q", err, ce.Key, tt.key)
			}
		})
	}
	t.Run("a bad duration is quoted", func(t *testing.T) {
		_, err := Load(writeFile(t, isolate(t), "llm: {timeout: soon}\n"), nil)
		if err == nil || !strings.Contains(err.Error(), `"soon" is not a duration`) {
			t.Errorf("err = %v", err)
		}
	})
}

func TestMissingExplicitFile(t *testing.T) {
	isolate(t)
	_, err := Load(filepath.Join(t.TempDir(), "nope.yaml"), nil)
	var ce *Error
	if !errors.As(err, &ce) || ce.Key != "--config" {
		t.Fatalf("err = %v, want an error naming --config", err)
	}
}

func TestParseTTL(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"180d", 180 * 24 * time.Hour, true},
		{"12h", 12 * time.Hour, true},
		{"0", 0, true},
		{"never", 0, true},
		{"-1d", 0, false},
		{"36500d", 36500 * 24 * time.Hour, true},
		{"36501d", 0, false},
		{"213504d", 0, false},
		{"9999999h", 0, false},
		{"soon", 0, false},
	}
	for _, tt := range tests {
		got, err := parseTTL(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("parseTTL(%q) = %v, %v", tt.in, got, err)
		}
	}
}

// TestExampleDocumentsEveryKey keeps configs/dreamd.example.yaml true to the code: it must load,
// and name exactly the keys that have defaults.
func TestExampleDocumentsEveryKey(t *testing.T) {
	isolate(t)
	example := filepath.Join("..", "..", "configs", "dreamd.example.yaml")
	if _, err := Load(example, nil); err != nil {
		t.Fatalf("the example config does not load: %v", err)
	}
	file := viper.New()
	file.SetConfigFile(example)
	if err := file.ReadInConfig(); err != nil {
		t.Fatal(err)
	}
	def := viper.New()
	defaults(def)
	want, got := def.AllKeys(), file.AllKeys()
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(want, got) {
		t.Errorf("example keys differ from defaults:\n example: %v\n defaults: %v", got, want)
	}
}

// TestBadFlagValueNamesTheFlag: a bad value given on the command line is reported by its flag,
// one from the file by its key.
func TestBadFlagValueNamesTheFlag(t *testing.T) {
	dir := isolate(t)
	file := writeFile(t, dir, "log: {level: loud}\n")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--log-level", "chatty"}, `--log-level: "chatty" is not`},
		{nil, `config ` + file + `: log.level: "loud" is not`},
	} {
		flags := pflag.NewFlagSet("x", pflag.ContinueOnError)
		flags.String("log-level", "info", "")
		if err := flags.Parse(tt.args); err != nil {
			t.Fatal(err)
		}
		_, err := Load(file, flags)
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%v: error %v, want it to start with %q", tt.args, err, tt.want)
		}
	}
}

// TestSessionCap: gather.max_sessions_per_pass defaults to no cap, and --max-sessions overrides the
// file, a bad value named by its flag.
func TestSessionCap(t *testing.T) {
	dir := isolate(t)
	if c, err := Load("", nil); err != nil || c.Gather.MaxSessionsPerPass != 0 {
		t.Fatalf("default: %v, %+v", err, c)
	}
	file := writeFile(t, dir, "gather: {max_sessions_per_pass: 500}\n")
	for _, tt := range []struct {
		args []string
		want int
		err  string
	}{
		{nil, 500, ""},
		{[]string{"--max-sessions", "20"}, 20, ""},
		{[]string{"--max-sessions", "-2"}, 0, "--max-sessions: must be >= 0"},
	} {
		flags := pflag.NewFlagSet("x", pflag.ContinueOnError)
		flags.Int("max-sessions", 0, "")
		if err := flags.Parse(tt.args); err != nil {
			t.Fatal(err)
		}
		c, err := Load(file, flags)
		if tt.err != "" {
			if err == nil || !strings.HasPrefix(err.Error(), tt.err) {
				t.Errorf("%v: error %v, want %q", tt.args, err, tt.err)
			}
			continue
		}
		if err != nil || c.Gather.MaxSessionsPerPass != tt.want {
			t.Errorf("%v: %v, cap %d, want %d", tt.args, err, c.Gather.MaxSessionsPerPass, tt.want)
		}
	}
}

func TestUnknownEnv(t *testing.T) {
	tests := []struct {
		env  string
		want string // "" = no warning
	}{
		{"DREAMD_LLM_MODEL=x", ""},
		{"DREAMD_LLM_PRICES_INPUT=1", ""},
		{"DREAMD_STORE_USER_PATH=/x", ""},
		{"DREAMD_CPUPROFILE=/tmp/p", ""},
		{"DREAMD_AGENTS_CACHE=/tmp/c", ""},
		{"HOME=/home/x", ""},
		{"DREAMD_LLM_MODLE=x", "DREAMD_LLM_MODLE sets nothing: it is no config key (did you mean DREAMD_LLM_MODEL?)"},
		{"DREAMD_LLM_APIKEY=x", "(did you mean DREAMD_LLM_API_KEY?)"},
		{"DREAMD_WHATEVER=1", "DREAMD_WHATEVER sets nothing: it is no config key"},
	}
	for _, tt := range tests {
		t.Run(tt.env, func(t *testing.T) {
			got := UnknownEnv([]string{tt.env})
			switch {
			case tt.want == "" && len(got) > 0:
				t.Errorf("warned %q", got)
			case tt.want != "" && (len(got) != 1 || !strings.Contains(got[0], tt.want)):
				t.Errorf("got %q, want one warning with %q", got, tt.want)
			}
			if strings.HasPrefix(tt.want, "DREAMD_WHATEVER") && len(got) == 1 && strings.Contains(got[0], "did you mean") {
				t.Errorf("suggested a name far from the typo: %q", got[0])
			}
		})
	}
}
