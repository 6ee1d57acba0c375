// Package config loads dreamd's configuration with viper, in docs/DESIGN.md's precedence: flags >
// environment (DREAMD_ + key with "." → "_", and OPENAI_API_KEY for the key) > file > defaults.
// Unknown keys and bad values are errors that name the key.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-viper/mapstructure/v2"
	"github.com/robfig/cron/v3"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/dreamd/dreamd/internal/lazyre"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/safefile"
	"github.com/dreamd/dreamd/internal/transcript"
)

// StoreMode is where project stores live (store.mode).
type StoreMode string

// The store modes.
const (
	StorePerProject StoreMode = "claude" // a store per project, where Claude Code keeps it under store.root
	StoreFixed      StoreMode = "fixed"  // one store at store.path for every project
)

// ApplyMode is what a pass does with its plan (apply).
type ApplyMode string

// The apply modes.
const (
	ApplyAuto   ApplyMode = "auto"   // a pass applies its plan
	ApplyReview ApplyMode = "review" // a pass leaves its plan for `dreamd apply`
)

// Config is the whole configuration, after defaults, file, environment and flags.
type Config struct {
	Schedule string    `mapstructure:"schedule"`
	Gates    Gates     `mapstructure:"gates"`
	Sources  []Source  `mapstructure:"sources"`
	Store    Store     `mapstructure:"store"`
	LLM      LLM       `mapstructure:"llm"`
	Gather   Gather    `mapstructure:"gather"`
	Limits   Limits    `mapstructure:"limits"`
	Prune    Prune     `mapstructure:"prune"`
	Redact   Redact    `mapstructure:"redact"`
	History  History   `mapstructure:"history"`
	Archive  Archive   `mapstructure:"archive"`
	Apply    ApplyMode `mapstructure:"apply"`
	StateDir string    `mapstructure:"state_dir"`
	Log      Log       `mapstructure:"log"`
	UI       UI        `mapstructure:"ui"`

	// File is the config file that was read, "" when none.
	File string `mapstructure:"-"`

	// AgentMemory reads what other agents' own memory features wrote (Qwen Code's auto-memory,
	// Codex's memories, Gemini CLI's and Qwen Code's save_memory) where those files exist.
	AgentMemory bool `mapstructure:"agent_memory"`
	// SpecStory reads the SpecStory exports (<project>/.specstory/history/*.md) of every project
	// dreamd knows from the other transcripts, the cursors and the sources.
	SpecStory bool `mapstructure:"specstory"`
}

// Gates decide whether the daemon consolidates a store at a tick.
type Gates struct {
	MinHours    float64 `mapstructure:"min_hours"`
	MinSessions int     `mapstructure:"min_sessions"`
	IdleMinutes float64 `mapstructure:"idle_minutes"`
}

// Source is one place transcripts are read from.
type Source struct {
	Kind    string `mapstructure:"kind"`
	Path    string `mapstructure:"path"`
	Project string `mapstructure:"project"`
}

// Store says where memories go.
type Store struct {
	Mode StoreMode `mapstructure:"mode"` // claude: one store per project; fixed: one store at Path
	Path string    `mapstructure:"path"` // the store for mode fixed
	Root string    `mapstructure:"root"` // Claude Code's projects directory for mode claude
	User User      `mapstructure:"user"`
	Team Team      `mapstructure:"team"`
}

// Team is the team scope: one store in a git repository the team shares. dreamd works in its own
// clone of Repo (under the state directory) and pushes each applied pass as one commit.
type Team struct {
	Repo    string        `mapstructure:"repo"`    // URL or path of the shared repository; "" = no team scope
	Path    string        `mapstructure:"path"`    // the store's directory inside the repository
	Branch  string        `mapstructure:"branch"`  // the shared branch
	Review  bool          `mapstructure:"review"`  // push to dreamd/<host>/<date> for review instead of Branch
	Types   []memory.Type `mapstructure:"types"`   // memory types that may go to the team
	Exclude []string      `mapstructure:"exclude"` // projects that never send anything to the team
}

// User is the user scope: one store for who the person is and what they want in every project.
type User struct {
	Enabled bool   `mapstructure:"enabled"`
	Path    string `mapstructure:"path"` // default $XDG_DATA_HOME/dreamd/user
}

// LLM is the OpenAI-compatible endpoint; with neither base_url nor api_key set the offline
// consolidator is used.
type LLM struct {
	Offline         bool          `mapstructure:"offline"` // force the offline consolidator
	BaseURL         string        `mapstructure:"base_url"`
	APIKey          string        `mapstructure:"api_key"`
	Model           string        `mapstructure:"model"`
	Timeout         time.Duration `mapstructure:"timeout"`
	MaxRetries      int           `mapstructure:"max_retries"`
	MaxInputTokens  int           `mapstructure:"max_input_tokens"`
	MaxOutputTokens int           `mapstructure:"max_output_tokens"` // 0: the server's default
	Concurrency     int           `mapstructure:"concurrency"`       // calls in flight across stores
	APIVersion      string        `mapstructure:"api_version"`       // Azure OpenAI only
	Prices          Prices        `mapstructure:"prices"`
}

// Gather shapes how much of a store's new material one pass reads.
type Gather struct {
	// MaxSessionsPerPass caps the transcript files (sessions) a store's pass reads, oldest first;
	// the rest wait, their cursors unmoved, for the next passes. 0: no cap.
	MaxSessionsPerPass int `mapstructure:"max_sessions_per_pass"`
}

// Prices are a provider's prices in US dollars per million tokens, for the cost of each pass.
type Prices struct {
	Input       float64 `mapstructure:"input"`
	CachedInput float64 `mapstructure:"cached_input"`
	Output      float64 `mapstructure:"output"`
}

// UseOffline reports whether the offline consolidator runs: forced, or no endpoint configured.
func (l LLM) UseOffline() bool { return l.Offline || l.BaseURL == "" && l.APIKey == "" }

// Limits are the caps of the index and of a memory, and the retire guard.
type Limits struct {
	memory.Limits     `mapstructure:",squash"`
	MaxRetireFraction float64 `mapstructure:"max_retire_fraction"`
}

// Prune is the deterministic retirement policy.
type Prune struct {
	// TTL per memory type: a memory not updated for this long expires ("180d", "4320h"; "0" never).
	TTL map[string]string `mapstructure:"ttl"`
	// UnusedDays retires a memory nobody learnt, confirmed, updated or used (an agent read its
	// file, recall returned it) for this many days; 0 never.
	UnusedDays int `mapstructure:"unused_days"`
}

// History says how many runs' journals and pre-images a store keeps: the newest KeepRuns and every
// run younger than KeepDays, whichever keeps more.
type History struct {
	KeepRuns int `mapstructure:"keep_runs"`
	KeepDays int `mapstructure:"keep_days"`
}

// Archive says how long retired memories stay in the archive once their run's journal is pruned:
// KeepDays after the run, 0 forever (the default).
type Archive struct {
	KeepDays int `mapstructure:"keep_days"`
}

// Redact adds patterns to the built-in secret detectors.
type Redact struct {
	Patterns []string `mapstructure:"patterns"`
}

// UI is the local web view of every store (`dreamd ui`, and the daemon when Listen is set).
type UI struct {
	// Listen is the loopback address the daemon serves the web view on ("127.0.0.1:8377"; port 0
	// picks a free one); "" serves none. `dreamd ui` listens here too when it is set.
	Listen string `mapstructure:"listen"`
}

// LoopbackAddr checks that addr is a host:port on the loopback interface: 127.0.0.0/8, ::1 or
// localhost. The web view shows every memory: no other machine may reach it.
func LoopbackAddr(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%q is not host:port (127.0.0.1:8377)", addr)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("%q: the port must be a number from 0 to 65535", addr)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("%q is not a loopback address (127.0.0.1, ::1 or localhost): the web view shows every memory, and only this machine may reach it", addr)
	}
	return nil
}

// Log configures logging.
type Log struct {
	Level  string `mapstructure:"level"`
	Format string `mapstructure:"format"`
}

// Error is a configuration error naming the key (or flag) at fault.
type Error struct {
	Key  string
	Msg  string
	File string // the config file read, if any: where to correct the key
}

func (e *Error) Error() string {
	if strings.HasPrefix(e.Key, "--") {
		return e.Key + ": " + e.Msg // a flag, not a key of the file
	}
	if e.File != "" {
		return fmt.Sprintf("config %s: %s: %s", e.File, e.Key, e.Msg)
	}
	return fmt.Sprintf("config: %s: %s", e.Key, e.Msg)
}

// Detail is the error without the word "config" and the file, for a report that already says it
// is about the configuration (doctor's config check).
func (e *Error) Detail() string {
	if strings.HasPrefix(e.Key, "--") {
		return e.Error()
	}
	return e.Key + ": " + e.Msg
}

// inFile names the config file in err, when it is a config error about a key.
func inFile(err error, file string) error {
	var ce *Error
	if file != "" && errors.As(err, &ce) && ce.File == "" && !strings.HasPrefix(ce.Key, "--") {
		ce.File = file
	}
	return err
}

// Defaults other packages share (the eval runner uses them for its scenarios).
const (
	DefaultMaxInputTokens    = 100000
	DefaultMaxRetireFraction = 0.25
)

func defaults(v *viper.Viper) {
	v.SetDefault("schedule", "@hourly")
	v.SetDefault("gates.min_hours", 24)
	v.SetDefault("gates.min_sessions", 5)
	v.SetDefault("gates.idle_minutes", 15)
	v.SetDefault("sources", defaultSources())
	v.SetDefault("agent_memory", true)
	v.SetDefault("specstory", true)
	v.SetDefault("store.mode", StorePerProject)
	v.SetDefault("store.path", "")
	v.SetDefault("store.root", "~/.claude/projects")
	v.SetDefault("store.user.enabled", true)
	v.SetDefault("store.user.path", "")
	v.SetDefault("store.team.repo", "")
	v.SetDefault("store.team.path", "memory")
	v.SetDefault("store.team.branch", "main")
	v.SetDefault("store.team.review", true)
	v.SetDefault("store.team.types", []string{"project", "reference"})
	v.SetDefault("store.team.exclude", []string{})
	v.SetDefault("llm.offline", false)
	v.SetDefault("llm.base_url", "")
	v.SetDefault("llm.api_key", "")
	v.SetDefault("llm.model", "gpt-4o-mini")
	v.SetDefault("llm.timeout", "120s")
	v.SetDefault("llm.max_retries", 3)
	v.SetDefault("llm.max_input_tokens", DefaultMaxInputTokens)
	v.SetDefault("llm.max_output_tokens", 0)
	v.SetDefault("llm.concurrency", 4)
	v.SetDefault("llm.api_version", "")
	v.SetDefault("llm.prices.input", 0)
	v.SetDefault("llm.prices.cached_input", 0)
	v.SetDefault("llm.prices.output", 0)
	v.SetDefault("gather.max_sessions_per_pass", 0)
	v.SetDefault("limits.index_max_lines", memory.DefaultLimits.IndexMaxLines)
	v.SetDefault("limits.index_max_bytes", memory.DefaultLimits.IndexMaxBytes)
	v.SetDefault("limits.index_line_max", memory.DefaultLimits.IndexLineMax)
	v.SetDefault("limits.memory_max_bytes", memory.DefaultLimits.MemoryMaxBytes)
	v.SetDefault("limits.max_retire_fraction", DefaultMaxRetireFraction)
	for _, typ := range memory.TypeNames() {
		v.SetDefault("prune.ttl."+typ, "0")
	}
	v.SetDefault("prune.unused_days", 0)
	v.SetDefault("redact.patterns", []string{})
	v.SetDefault("history.keep_runs", 100)
	v.SetDefault("history.keep_days", 180)
	v.SetDefault("archive.keep_days", 0)
	v.SetDefault("apply", ApplyAuto)
	v.SetDefault("state_dir", "")
	v.SetDefault("log.level", "info")
	v.SetDefault("log.format", "auto")
	v.SetDefault("ui.listen", "")
}

// Load reads the configuration. file is --config ("" = the default location, absent is fine);
// flags are the command's flags, of which those named in FlagKeys override their keys.
func Load(file string, flags *pflag.FlagSet) (*Config, error) {
	v := viper.New()
	defaults(v)
	v.SetEnvPrefix("DREAMD")
	v.SetEnvKeyReplacer(strings.NewReplacer(".", "_"))
	v.AutomaticEnv()
	// The OpenAI SDKs' own variables work too, after dreamd's.
	if err := v.BindEnv("llm.api_key", "DREAMD_LLM_API_KEY", "OPENAI_API_KEY"); err != nil {
		return nil, err
	}
	if err := v.BindEnv("llm.base_url", "DREAMD_LLM_BASE_URL", "OPENAI_BASE_URL"); err != nil {
		return nil, err
	}

	explicit := file != ""
	if explicit {
		if abs, err := filepath.Abs(file); err == nil {
			file = abs
		}
	} else {
		file = filepath.Join(configHome(), "dreamd", "config.yaml")
	}
	used := ""
	if _, err := os.Stat(file); err == nil || explicit {
		v.SetConfigType("yaml")
		data, err := safefile.ReadFile(file, maxConfigFile)
		if err == nil {
			err = v.ReadConfig(bytes.NewReader(data))
		}
		if err != nil {
			return nil, &Error{Key: "--config", Msg: readError(file, err)}
		}
		used = file
	}
	if flags != nil {
		for flag, key := range flagKeys {
			if f := flags.Lookup(flag); f != nil && f.Changed {
				v.Set(key, f.Value.String())
			}
		}
	}

	var c Config
	err := v.UnmarshalExact(&c, viper.DecodeHook(mapstructure.ComposeDecodeHookFunc(
		mapstructure.StringToTimeDurationHookFunc(),
		mapstructure.StringToSliceHookFunc(","),
	)))
	if err != nil {
		return nil, inFile(decodeError(err, v), used)
	}
	c.File = used
	base := ""
	if used != "" {
		base = filepath.Dir(used)
	}
	c.resolve(base)
	return &c, inFile(byFlag(c.Validate(), flags), used)
}

// byFlag names the flag instead of the config key when the bad value came from the command line.
func byFlag(err error, flags *pflag.FlagSet) error {
	var ce *Error
	if flags == nil || !errors.As(err, &ce) {
		return err
	}
	for flag, key := range flagKeys {
		if ce.Key == key && flags.Changed(flag) {
			return &Error{Key: "--" + flag, Msg: ce.Msg}
		}
	}
	return err
}

// flagKeys maps command-line flags onto the config keys they override.
var flagKeys = map[string]string{
	"log-level":    "log.level",
	"max-sessions": "gather.max_sessions_per_pass",
}

// maxConfigFile bounds the config file's read: a FIFO or /dev/zero given as --config must fail,
// not hang or fill the memory.
const maxConfigFile = 1 << 20

func readError(file string, err error) string {
	var notFound viper.ConfigFileNotFoundError
	if errors.As(err, &notFound) || errors.Is(err, os.ErrNotExist) {
		return fmt.Sprintf("%s does not exist", file)
	}
	return fmt.Sprintf("cannot read %s: %v", file, err)
}

var (
	invalidKeys = lazyre.New(`(?m)'([^']*)' has invalid keys: (.+)$`)
	quotedKey   = lazyre.New(`'([^']*)'`)
)

// decodeError turns mapstructure's messages into ones that name the key by its full path
// ("sources[1].kindd", not "kindd").
func decodeError(err error, v *viper.Viper) error {
	msg := err.Error()
	if all := invalidKeys.FindAllStringSubmatch(msg, -1); all != nil {
		var keys []string
		for _, m := range all {
			for k := range strings.SplitSeq(m[2], ",") {
				keys = append(keys, joinKey(m[1], strings.TrimSpace(k)))
			}
		}
		slices.Sort(keys)
		return &Error{Key: strings.Join(keys, ", "), Msg: unknownKeys(keys)}
	}
	if m := quotedKey.FindStringSubmatch(msg); m != nil {
		key := strings.ToLower(m[1])
		if strings.Contains(msg, "invalid duration") || strings.Contains(msg, "missing unit in duration") {
			return &Error{Key: key, Msg: fmt.Sprintf("%q is not a duration (e.g. 90s, 5m, 2h)", v.GetString(key))}
		}
		return &Error{Key: key, Msg: "bad value: " + lastLine(msg)}
	}
	return &Error{Key: "config", Msg: msg}
}

// joinKey puts a key under its parent's path; the top level has an empty parent.
func joinKey(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// resolve expands ~ and makes paths from the config file relative to the file's directory.
func (c *Config) resolve(base string) {
	home, _ := os.UserHomeDir()
	expand := func(p string) string {
		if p == "" {
			return ""
		}
		if p == "~" || strings.HasPrefix(p, "~/") {
			return filepath.Join(home, strings.TrimPrefix(p, "~"))
		}
		if !filepath.IsAbs(p) && base != "" {
			return filepath.Join(base, p)
		}
		if abs, err := filepath.Abs(p); err == nil {
			return abs
		}
		return p
	}
	for i := range c.Sources {
		c.Sources[i].Path = expand(c.Sources[i].Path)
		if c.Sources[i].Project != "" {
			c.Sources[i].Project = expand(c.Sources[i].Project)
		}
	}
	c.Store.Path = expand(c.Store.Path)
	c.Store.Root = expand(c.Store.Root)
	if c.Store.User.Path == "" {
		c.Store.User.Path = filepath.Join(dataHome(), "dreamd", "user")
	}
	c.Store.User.Path = expand(c.Store.User.Path)
	if r := c.Store.Team.Repo; r != "" && !strings.Contains(r, "://") && !strings.Contains(r, "@") {
		c.Store.Team.Repo = expand(r) // a path; URLs (https://, ssh://, git@host:…) stay as written
	}
	for i, p := range c.Store.Team.Exclude {
		c.Store.Team.Exclude[i] = expand(p)
	}
	if c.StateDir == "" {
		c.StateDir = filepath.Join(stateHome(), "dreamd")
	}
	c.StateDir = expand(c.StateDir)
}

func configHome() string {
	if d := os.Getenv("XDG_CONFIG_HOME"); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".config")
}

func dataHome() string {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".local", "share")
}

func stateHome() string {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".local", "state")
}

// Validate checks every value, naming the key of the first bad one.
func (c *Config) Validate() error {
	if fi, err := os.Stat(c.StateDir); err == nil && !fi.IsDir() {
		return &Error{Key: "state_dir", Msg: fmt.Sprintf("%s is not a directory", c.StateDir)}
	}
	if err := writableDir(c.StateDir); err != nil {
		// A service restarted on failure would meet the same refusal every 30 s: exit 2 stops it.
		return &Error{Key: "state_dir", Msg: err.Error()}
	}
	if err := c.checkDirs(); err != nil {
		return err
	}
	if err := parseSchedule(c.Schedule); err != nil {
		return &Error{Key: "schedule", Msg: fmt.Sprintf("bad cron spec %q: %v", c.Schedule, err)}
	}
	// Written as !(x >= lo && x <= hi) so NaN, which compares false with everything, is refused.
	switch {
	case !(c.Gates.MinHours >= 0 && c.Gates.MinHours <= maxGateHours):
		return &Error{Key: "gates.min_hours", Msg: fmt.Sprintf("must be between 0 and %d", maxGateHours)}
	case c.Gates.MinSessions < 0:
		return &Error{Key: "gates.min_sessions", Msg: "must be >= 0"}
	case !(c.Gates.IdleMinutes >= 0 && c.Gates.IdleMinutes <= maxGateHours*60):
		return &Error{Key: "gates.idle_minutes", Msg: fmt.Sprintf("must be between 0 and %d", maxGateHours*60)}
	}
	for i, s := range c.Sources {
		key := fmt.Sprintf("sources[%d]", i)
		if kinds := transcript.Kinds(); !slices.Contains(kinds, s.Kind) {
			return &Error{Key: key + ".kind", Msg: fmt.Sprintf("unknown kind %q (one of %s)", s.Kind, strings.Join(kinds, ", "))}
		}
		if s.Path == "" {
			return &Error{Key: key + ".path", Msg: "required"}
		}
		if (s.Kind == "markdown" || s.Kind == "chat") && s.Project == "" {
			return &Error{Key: key + ".project", Msg: "required for kind " + s.Kind}
		}
	}
	switch c.Store.Mode {
	case StorePerProject:
		if c.Store.Root == "" {
			return &Error{Key: "store.root", Msg: "required for mode claude"}
		}
	case StoreFixed:
		if c.Store.Path == "" {
			return &Error{Key: "store.path", Msg: "required for mode fixed"}
		}
	default:
		return &Error{Key: "store.mode", Msg: fmt.Sprintf("%q is not claude or fixed", c.Store.Mode)}
	}
	if err := c.Store.Team.validate(); err != nil {
		return err
	}
	if c.Store.User.Enabled && c.Store.Mode == StoreFixed && filepath.Clean(c.Store.User.Path) == filepath.Clean(c.Store.Path) {
		return &Error{Key: "store.user.path", Msg: "is the fixed store itself: the user scope needs a store of its own"}
	}
	if c.LLM.BaseURL != "" && !strings.HasPrefix(c.LLM.BaseURL, "http://") && !strings.HasPrefix(c.LLM.BaseURL, "https://") {
		return &Error{Key: "llm.base_url", Msg: "must start with http:// or https://"}
	}
	if c.LLM.Model == "" {
		return &Error{Key: "llm.model", Msg: "required"}
	}
	if c.LLM.Timeout < time.Second || c.LLM.Timeout > 24*time.Hour {
		return &Error{Key: "llm.timeout", Msg: "must be between 1s and 24h (e.g. 120s)"}
	}
	if c.LLM.MaxRetries < 0 {
		return &Error{Key: "llm.max_retries", Msg: "must be >= 0"}
	}
	if c.LLM.MaxInputTokens < 2000 {
		return &Error{Key: "llm.max_input_tokens", Msg: "must be >= 2000"}
	}
	if c.LLM.Concurrency < 1 || c.LLM.Concurrency > 64 {
		return &Error{Key: "llm.concurrency", Msg: "must be between 1 and 64"}
	}
	if c.Gather.MaxSessionsPerPass < 0 {
		return &Error{Key: "gather.max_sessions_per_pass", Msg: "must be >= 0 (0: no cap)"}
	}
	if c.LLM.MaxOutputTokens < 0 {
		return &Error{Key: "llm.max_output_tokens", Msg: "must be >= 0 (0: the server's default)"}
	}
	for key, price := range map[string]float64{"llm.prices.input": c.LLM.Prices.Input, "llm.prices.cached_input": c.LLM.Prices.CachedInput, "llm.prices.output": c.LLM.Prices.Output} {
		if !(price >= 0 && price < 1e6) {
			return &Error{Key: key, Msg: "must be a price in US dollars per million tokens, >= 0"}
		}
	}
	for key, n := range map[string]int{
		"limits.index_max_lines":  c.Limits.IndexMaxLines,
		"limits.index_max_bytes":  c.Limits.IndexMaxBytes,
		"limits.index_line_max":   c.Limits.IndexLineMax,
		"limits.memory_max_bytes": c.Limits.MemoryMaxBytes,
	} {
		if n <= 0 {
			return &Error{Key: key, Msg: "must be > 0"}
		}
	}
	if c.Limits.IndexLineMax < 40 {
		return &Error{Key: "limits.index_line_max", Msg: "must be >= 40 to hold an entry"}
	}
	if f := c.Limits.MaxRetireFraction; !(f >= 0 && f <= 1) {
		return &Error{Key: "limits.max_retire_fraction", Msg: "must be between 0 and 1"}
	}
	if d := c.Prune.UnusedDays; d < 0 || d > 36500 {
		return &Error{Key: "prune.unused_days", Msg: "must be between 0 (never) and 36500 days"}
	}
	for typ, ttl := range c.Prune.TTL {
		if !memory.Type(typ).Valid() {
			return &Error{Key: "prune.ttl." + typ, Msg: "unknown memory type"}
		}
		if _, err := parseTTL(ttl); err != nil {
			return &Error{Key: "prune.ttl." + typ, Msg: err.Error()}
		}
	}
	for i, p := range c.Redact.Patterns {
		if p == "" {
			return &Error{Key: fmt.Sprintf("redact.patterns[%d]", i), Msg: "empty pattern"}
		}
		if _, err := regexp.Compile(p); err != nil {
			return &Error{Key: fmt.Sprintf("redact.patterns[%d]", i), Msg: err.Error()}
		}
	}
	if c.History.KeepRuns < 1 {
		return &Error{Key: "history.keep_runs", Msg: "must be >= 1 (the last run can always be rolled back)"}
	}
	if c.History.KeepDays < 0 || c.History.KeepDays > maxTTLDays {
		return &Error{Key: "history.keep_days", Msg: fmt.Sprintf("must be between 0 and %d", maxTTLDays)}
	}
	if c.Archive.KeepDays < 0 || c.Archive.KeepDays > maxTTLDays {
		return &Error{Key: "archive.keep_days", Msg: fmt.Sprintf("must be between 0 (forever) and %d", maxTTLDays)}
	}
	if c.Apply != ApplyAuto && c.Apply != ApplyReview {
		return &Error{Key: "apply", Msg: fmt.Sprintf("%q is not auto or review", c.Apply)}
	}
	if _, err := ParseLevel(c.Log.Level); err != nil {
		return &Error{Key: "log.level", Msg: err.Error()}
	}
	if !slices.Contains([]string{"auto", "text", "json"}, c.Log.Format) {
		return &Error{Key: "log.format", Msg: fmt.Sprintf("%q is not auto, text or json", c.Log.Format)}
	}
	if c.UI.Listen != "" {
		if err := LoopbackAddr(c.UI.Listen); err != nil {
			return &Error{Key: "ui.listen", Msg: err.Error()}
		}
	}
	return nil
}

// Ranges of values that are legal in type but not in sense.
const (
	maxGateHours = 24 * 365 // a gate longer than a year would never open
	maxTTLDays   = 100 * 365
	minEvery     = time.Second // robfig/cron silently turns a shorter @every into one second
)

// parseSchedule checks a cron spec; robfig/cron's parser panics on some malformed input
// ("TZ=UTC" with no spec after it), which is a bad value, not a crash. An `@every` below a second
// is refused rather than rounded up to one, as the parser would do without a word.
func parseSchedule(spec string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	if every, ok := strings.CutPrefix(strings.TrimSpace(spec), "@every "); ok {
		if d, err := time.ParseDuration(strings.TrimSpace(every)); err == nil && d < minEvery {
			return fmt.Errorf("@every must be at least %v (e.g. @every 30m)", minEvery)
		}
	}
	_, err = cron.ParseStandard(spec)
	return err
}

// TTLs returns the parsed per-type TTLs; a type absent or "0" never expires.
func (c *Config) TTLs() map[memory.Type]time.Duration {
	out := map[memory.Type]time.Duration{}
	for typ, s := range c.Prune.TTL {
		if d, err := parseTTL(s); err == nil && d > 0 {
			out[memory.Type(typ)] = d
		}
	}
	return out
}

// parseTTL parses "180d", "12h", "0" or "never", up to 100 years (a day count past that would
// overflow time.Duration into a TTL of minutes).
func parseTTL(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "0" || s == "never" {
		return 0, nil
	}
	bad := fmt.Errorf("bad duration %q (want e.g. 180d, 4320h or 0 for never, at most %dd)", s, maxTTLDays)
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil || n < 0 || n > maxTTLDays {
			return 0, bad
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 || d > maxTTLDays*24*time.Hour {
		return 0, bad
	}
	return d, nil
}

// validate checks every key of the team scope, whether it is on (a repository set) or not: a
// bad value is found when it is written, not the day the team scope is turned on.
func (t Team) validate() error {
	for _, typ := range t.Types {
		if !typ.Valid() {
			return &Error{Key: "store.team.types", Msg: fmt.Sprintf("%q is not a memory type (%s)", typ, strings.Join(memory.TypeNames(), ", "))}
		}
	}
	if p := filepath.Clean(t.Path); t.Path == "" || filepath.IsAbs(t.Path) || p == ".." || strings.HasPrefix(p, "../") {
		return &Error{Key: "store.team.path", Msg: fmt.Sprintf("%q must be a directory inside the repository", t.Path)}
	}
	if t.Branch == "" || strings.ContainsAny(t.Branch, " ~^:?*[\\") {
		return &Error{Key: "store.team.branch", Msg: fmt.Sprintf("%q is not a branch name", t.Branch)}
	}
	return nil
}

// checkDirs refuses a store path (the fixed store, Claude Code's projects root, the user store, a
// team repository given as a path) that exists and is not a directory: a pass would fail on it at
// its first write, and status and the dry run would report a store that cannot be.
func (c *Config) checkDirs() error {
	paths := []struct{ key, path string }{
		{"store.path", c.Store.Path},
		{"store.root", c.Store.Root},
		{"store.user.path", c.Store.User.Path},
	}
	if r := c.Store.Team.Repo; filepath.IsAbs(r) {
		paths = append(paths, struct{ key, path string }{"store.team.repo", r})
	}
	for _, p := range paths {
		if p.path == "" {
			continue
		}
		if fi, err := os.Stat(p.path); err == nil && !fi.IsDir() {
			return &Error{Key: p.key, Msg: fmt.Sprintf("%s is not a directory", p.path)}
		}
	}
	return nil
}

// documentedEnv are the DREAMD_ variables that are not config keys (README: profiling, the
// recorded agents' cache, the benchmarks' corpus).
var documentedEnv = []string{
	"DREAMD_CPUPROFILE", "DREAMD_MEMPROFILE", "DREAMD_AGENTS_CACHE", "DREAMD_BENCH_DISTINCT", "DREAMD_BENCH_SIMILAR",
}

// envNames returns every variable that sets a config key (DREAMD_ + the key in capitals with "."
// → "_"), from the struct tags of Config.
func envNames() []string {
	var out []string
	var walk func(t reflect.Type, prefix string)
	walk = func(t reflect.Type, prefix string) {
		for f := range t.Fields() {
			tag, _, _ := strings.Cut(f.Tag.Get("mapstructure"), ",")
			if tag == "" || tag == "-" {
				continue
			}
			name := prefix + "_" + strings.ToUpper(tag)
			if f.Type.Kind() == reflect.Struct && f.Type != reflect.TypeFor[time.Duration]() {
				walk(f.Type, name)
				continue
			}
			out = append(out, name)
		}
	}
	walk(reflect.TypeFor[Config](), "DREAMD")
	return out
}

// UnknownEnv returns a warning for each DREAMD_ variable of environ ("NAME=value" strings) that
// sets no config key and is none of dreamd's documented variables: viper ignores it, so a typo
// (DREAMD_LLM_MODLE) would otherwise leave the default in place without a word. A close known
// name is suggested.
func UnknownEnv(environ []string) []string {
	known := append(envNames(), documentedEnv...)
	var out []string
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, "DREAMD_") || slices.Contains(known, name) {
			continue
		}
		msg := fmt.Sprintf("environment variable %s sets nothing: it is no config key", name)
		if near := closest(name, known); near != "" {
			msg += fmt.Sprintf(" (did you mean %s?)", near)
		}
		out = append(out, msg)
	}
	slices.Sort(out)
	return out
}

// closest is the name of known nearest to name, if within a typo's distance.
func closest(name string, known []string) string {
	best, bestDist := "", 3
	for _, k := range known {
		if d := editDistance(name, k); d < bestDist {
			best, bestDist = k, d
		}
	}
	return best
}

// editDistance is the Damerau–Levenshtein (optimal string alignment) distance of a and b: a
// swapped pair of letters (MODLE) counts one.
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
