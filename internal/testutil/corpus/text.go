package corpus

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// The vocabulary the synthetic projects are written in.
var (
	nouns = []string{
		"cart", "checkout", "invoice", "session", "token", "cache", "router", "handler", "config",
		"schema", "migration", "worker", "queue", "payment", "account", "order", "report", "index",
		"parser", "client", "server", "ledger", "webhook", "scheduler", "metric", "tenant", "export",
		"search", "billing", "inventory", "shipment", "audit", "profile", "catalog", "coupon", "refund",
	}
	verbs = []string{
		"load", "parse", "render", "validate", "fetch", "apply", "compute", "merge", "flush", "retry",
		"encode", "decode", "resolve", "sync", "build", "scan", "emit", "record", "sort", "filter",
	}
	adjectives = []string{
		"stale", "consistent", "idempotent", "cheap", "bounded", "sorted", "valid", "fresh", "small",
		"atomic", "ordered", "cached", "lazy", "strict",
	}
	goTypes = []string{"string", "int", "int64", "bool", "time.Time", "[]byte", "error", "float64", "map[string]int"}
	// markerWords name the places planted lessons point at; they appear nowhere else in a corpus.
	markerWords = []string{
		"amber", "cobalt", "ember", "fern", "tidal", "quartz", "maple", "onyx", "birch", "coral",
		"falcon", "garnet", "harbor", "indigo", "juniper", "kestrel", "lumen", "meadow", "nimbus",
		"orchid", "pebble", "quill", "raven", "sable", "thistle", "umber", "vesper", "willow", "zephyr",
	}
)

func pick[T any](rng *rand.Rand, list []T) T { return list[rng.IntN(len(list))] }

func title(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

// pool holds lines of text a corpus is assembled from, already JSON-escaped, so that writing
// hundreds of megabytes is mostly copying.
type pool struct {
	code  []string // Go source lines
	logs  []string // test, build and service log lines
	prose []string // sentences of assistant prose and thinking
	paths []string // source files of a project, relative
}

func newPool(rng *rand.Rand) *pool {
	p := &pool{}
	for range 4096 {
		p.code = append(p.code, string(appendEscaped(nil, codeLine(rng))))
	}
	for range 2048 {
		p.logs = append(p.logs, string(appendEscaped(nil, logLine(rng))))
	}
	for range 1024 {
		p.prose = append(p.prose, string(appendEscaped(nil, sentence(rng))))
	}
	for range 256 {
		n := pick(rng, nouns)
		p.paths = append(p.paths, "internal/"+n+"/"+pick(rng, nouns)+pick(rng, []string{".go", "_test.go", ".go", ".go"}))
	}
	return p
}

func codeLine(rng *rand.Rand) string {
	n, m, v := pick(rng, nouns), pick(rng, nouns), pick(rng, verbs)
	switch rng.IntN(16) {
	case 0:
		return fmt.Sprintf("func %s%s(ctx context.Context, %s *%s) (*%s, error) {", v, title(n), m, title(m), title(n))
	case 1:
		return fmt.Sprintf("\tif err := %s.%s(ctx); err != nil {", n, title(v))
	case 2:
		return fmt.Sprintf("\t\treturn nil, fmt.Errorf(\"%s %s: %%w\", err)", v, n)
	case 3, 4:
		return "\t}"
	case 5:
		return fmt.Sprintf("\tfor _, %c := range %ss {", m[0], n)
	case 6:
		return fmt.Sprintf("\t\t%s.%s = append(%s.%s, %c)", n, title(m), n, title(m), m[0])
	case 7:
		return fmt.Sprintf("// %s%s %ss the %s of a %s, so the %s stays %s.", v, title(n), v, n, m, m, pick(rng, adjectives))
	case 8:
		return fmt.Sprintf("\t%s %s `json:\"%s\"`", title(m), pick(rng, goTypes), m)
	case 9:
		return fmt.Sprintf("type %s%s struct {", title(n), title(m))
	case 10:
		return fmt.Sprintf("\tdefer %s.Close()", n)
	case 11:
		return fmt.Sprintf("\treturn %s, nil", n)
	case 12:
		return ""
	case 13:
		return fmt.Sprintf("\t%s, err := s.%s.%s(ctx, %q)", m, n, title(v), m+"-"+n)
	case 14:
		return fmt.Sprintf("\tslog.Debug(\"%s %s\", \"%s\", %s.ID, \"n\", len(%ss))", v, n, m, m, n)
	}
	return "}"
}

func logLine(rng *rand.Rand) string {
	n, m, v := pick(rng, nouns), pick(rng, nouns), pick(rng, verbs)
	switch rng.IntN(9) {
	case 0:
		return fmt.Sprintf("=== RUN   Test%s%s/%s_%d", title(v), title(n), m, rng.IntN(40))
	case 1:
		return fmt.Sprintf("--- PASS: Test%s%s (0.%02ds)", title(v), title(n), rng.IntN(100))
	case 2:
		return fmt.Sprintf("    %s_test.go:%d: %s %s: got %d, want %d", n, 10+rng.IntN(400), v, m, rng.IntN(1000), rng.IntN(1000))
	case 3:
		return fmt.Sprintf("ok  \tgithub.com/bench/app/internal/%s\t0.%03ds", n, rng.IntN(1000))
	case 4:
		return fmt.Sprintf("2026-10-%02dT%02d:%02d:%02d.%03dZ\tINFO\t%s/%s.go:%d\t%s %s\t{\"%s\": %d, \"duration\": \"%dms\"}",
			1+rng.IntN(28), rng.IntN(24), rng.IntN(60), rng.IntN(60), rng.IntN(1000), n, n, 10+rng.IntN(300), v, m, m, rng.IntN(5000), rng.IntN(900))
	case 5:
		return fmt.Sprintf("internal/%s/%s.go:%d:%d: %s%s declared and not used", n, m, 10+rng.IntN(300), 2+rng.IntN(30), m, title(v))
	case 6:
		return fmt.Sprintf("  ✓ %s %ss the %s (%dms)", n, v, m, rng.IntN(90))
	case 7:
		return "PASS"
	}
	return fmt.Sprintf("goroutine %d [running]:\n\tgithub.com/bench/app/internal/%s.%s%s(0xc000%06x)", rng.IntN(300), n, v, title(m), rng.IntN(1<<24))
}

func sentence(rng *rand.Rand) string {
	n, m, v := pick(rng, nouns), pick(rng, nouns), pick(rng, verbs)
	a := pick(rng, adjectives)
	switch rng.IntN(10) {
	case 0:
		return fmt.Sprintf("The %s %ss the %s before the %s is %s, so the failure comes from %s.go.", n, v, m, m, a, n)
	case 1:
		return fmt.Sprintf("Let me check how %s%s handles a %s %s.", v, title(n), a, m)
	case 2:
		return fmt.Sprintf("I'll %s the %s first and then look at the %s tests.", v, n, m)
	case 3:
		return fmt.Sprintf("The test expects the %s to be %s, but %s%s returns it unsorted.", m, a, v, title(n))
	case 4:
		return fmt.Sprintf("That explains the flaky %s test: the %s is shared between goroutines.", n, m)
	case 5:
		return fmt.Sprintf("I changed `%s%s` to take a context and updated its %d callers.", v, title(m), 2+rng.IntN(9))
	case 6:
		return fmt.Sprintf("Now the %s package builds and all %d tests pass.", n, 5+rng.IntN(200))
	case 7:
		return fmt.Sprintf("Maybe the %s cache is %s here; the %s layer never invalidates it.", m, a, n)
	case 8:
		return fmt.Sprintf("Hmm, the %s migration renames the %s column, which the %s query still uses.", n, m, v)
	}
	return fmt.Sprintf("Next I need to %s the %s so the %s stays %s — otherwise the %s breaks.", v, n, m, a, pick(rng, nouns))
}

// UserRequest is a short turn a person types to steer the agent (scripts/gencorpus uses it too).
func UserRequest(rng *rand.Rand) string {
	n, m, v := pick(rng, nouns), pick(rng, nouns), pick(rng, verbs)
	switch rng.IntN(12) {
	case 0:
		return fmt.Sprintf("The %s tests are failing again, can you take a look?", n)
	case 1:
		return fmt.Sprintf("Can you add a %s option to the %s %s?", m, n, pick(rng, []string{"command", "endpoint", "worker"}))
	case 2:
		return fmt.Sprintf("Why is %sing the %s so slow?", v, n)
	case 3:
		return fmt.Sprintf("Refactor %s.go so %s%s takes a context.", n, v, title(m))
	case 4:
		return "Looks good, commit it."
	case 5:
		return "yes"
	case 6:
		return "Try again, but keep the public API the same."
	case 7:
		return "Run the tests once more please."
	case 8:
		return fmt.Sprintf("Hmm, that broke the %s build. Revert that part.", n)
	case 9:
		return fmt.Sprintf("make sure the %s linter passes too", m)
	case 10:
		return fmt.Sprintf("What does %s%s do when the %s is empty?", v, title(n), m)
	}
	return fmt.Sprintf("ok, now wire the %s into the %s and update the docs", n, m)
}

// lessonText is an explicit, durable lesson a person states, naming a place only this lesson
// names (the marker), so it can be traced into the prompt.
func lessonText(rng *rand.Rand, project, k int) (text, marker string) {
	word := pick(rng, markerWords)
	switch k % 5 {
	case 0:
		marker = fmt.Sprintf("golden-%s-%d", word, 100+k)
		return fmt.Sprintf("Remember that the p%d fixtures live in testdata/%s.", project, marker), marker
	case 1:
		marker = fmt.Sprintf("check-%s-%d", word, 100+k)
		return fmt.Sprintf("From now on, run `make %s` before pushing anything in p%d.", marker, project), marker
	case 2:
		marker = fmt.Sprintf("ship-%s-%d", word, 100+k)
		return fmt.Sprintf("Always deploy p%d with ./scripts/%s.sh, never by hand.", project, marker), marker
	case 3:
		marker = fmt.Sprintf("logs-%s-%d", word, 100+k)
		return fmt.Sprintf("I prefer the p%d service logs under /var/log/%s, keep them there.", project, marker), marker
	}
	marker = fmt.Sprintf("migrations-%s-%d", word, 100+k)
	return fmt.Sprintf("We decided that p%d keeps its SQL migrations in db/%s.", project, marker), marker
}
