package webui

import (
	"context"
	"fmt"
	"html"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/extract/offline"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/phases"
	"github.com/dreamd/dreamd/internal/redact"
	"github.com/dreamd/dreamd/internal/slug"
	"github.com/dreamd/dreamd/internal/store"
	"github.com/dreamd/dreamd/internal/transcript"
)

var today = time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)

// fixture is a state directory made by two real offline passes over one project: the first
// applied, the second left pending for review; the store also holds a hand-written memory whose
// body has markup and a credential in it.
type fixture struct {
	t        testing.TB
	env      *phases.Env
	srv      *httptest.Server
	ui       *Server
	storeID  string
	store    string
	applied  string // the applied run's id
	plan     string // the pending plan's run id
	rollback []string
	forced   []bool
	applies  []phases.Selection
}

const secret = "sk-abcdefghijklmnopqrstuvwxyz0123456789ABCD"

// outsideMarker is in a file outside every store, which a link in the store points to.
const outsideMarker = "OUTSIDE-THE-STORE-7f3a"

func newFixture(t testing.TB) *fixture {
	t.Helper()
	root := t.TempDir()
	red, err := redact.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, env: &phases.Env{
		Sources:           []transcript.Source{{Kind: "claude", Path: filepath.Join(root, "projects")}},
		StoreMode:         "claude",
		StoreRoot:         filepath.Join(root, "projects"),
		StateDir:          filepath.Join(root, "state"),
		Limits:            memory.DefaultLimits,
		MaxRetireFraction: 1,
		MaxInputTokens:    100000,
		Consolidator:      offline.New(),
		ConsolidatorName:  "offline",
		Redactor:          red,
		Now:               func() time.Time { return today },
	}}
	f.store = filepath.Join(root, "projects", slug.Project("/home/ana/shop"), "memory")
	f.write(filepath.Join(f.store, "hand-notes.md"), "---\nname: hand-notes\ndescription: Notes <b>by hand</b>\ntype: project\n---\nThe key is "+secret+" <script>alert(1)</script>\n")
	// A topic file that links out of the store, to a file it must never show.
	outside := filepath.Join(root, "outside.md")
	f.write(outside, "---\nname: escape\ndescription: outside\ntype: project\n---\n"+outsideMarker+"\n")
	if err := os.Symlink(outside, filepath.Join(f.store, "escape.md")); err != nil {
		t.Fatal(err)
	}
	f.session("aaaa1111-0000-4000-8000-000000000001", "2026-11-18T09:00:00Z", "Remember that deploys go through ./deploy.sh, which refuses a dirty git tree.")
	f.pass(phases.Options{})
	f.session("bbbb2222-0000-4000-8000-000000000002", "2026-11-20T10:00:00Z", "From now on run make lint before every commit. Also remember that we use PostgreSQL 16 for the database.")
	f.pass(phases.Options{Review: true})

	known, err := phases.KnownStores(f.env.StateDir)
	if err != nil || len(known) != 1 {
		t.Fatalf("stores %v %v", known, err)
	}
	f.storeID = filepath.Base(known[0].State)
	hist, err := store.History(known[0])
	if err != nil || len(hist) != 1 {
		t.Fatalf("history %v %v", hist, err)
	}
	f.applied = hist[0].RunID
	pending := phases.PendingPlans(known[0])
	if len(pending) != 1 {
		t.Fatalf("pending %v", pending)
	}
	f.plan = strings.TrimSuffix(filepath.Base(pending[0]), ".json")

	f.srv = httptest.NewUnstartedServer(nil)
	f.ui, err = New(Options{
		StateDir: f.env.StateDir,
		Redactor: red,
		Now:      func() time.Time { return today },
		Apply: func(_ context.Context, file string, sel phases.Selection) (*phases.Plan, error) {
			f.applies = append(f.applies, sel)
			p, err := phases.ReadPlan(file, f.env.StateDir)
			if err != nil {
				return nil, err
			}
			return phases.ApplyPlanPart(f.env, p, sel, false, false)
		},
		Rollback: func(_ context.Context, _ store.Paths, run string, force bool) (string, error) {
			f.rollback = append(f.rollback, run)
			f.forced = append(f.forced, force)
			return "rollback-x", nil
		},
	}, f.srv.Listener.Addr().(*net.TCPAddr))
	if err != nil {
		t.Fatal(err)
	}
	f.srv.Config.Handler = f.ui
	f.srv.Start()
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fixture) write(path, content string) {
	f.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) session(id, at, text string) {
	line := fmt.Sprintf(`{"type":"user","uuid":"%s-u","sessionId":"%s","cwd":"/home/ana/shop","timestamp":"%s","message":{"role":"user","content":%q}}`+"\n", id, id, at, text)
	f.write(filepath.Join(f.env.StoreRoot, slug.Project("/home/ana/shop"), id+".jsonl"), line)
}

func (f *fixture) pass(opt phases.Options) {
	f.t.Helper()
	p, err := phases.RunPass(context.Background(), f.env, opt)
	if err != nil {
		f.t.Fatal(err)
	}
	for _, o := range p.Outcomes {
		if o.Err != nil {
			f.t.Fatalf("pass: %v", o.Err)
		}
	}
}

// request is one raw request to the server.
type request struct {
	method, path string
	host         string // "": the server's own
	token        string // "good", "bad" or "": the cookie sent
	origin       string // "self", or an origin, or ""
	site         string // Sec-Fetch-Site
	form         url.Values
	csrf         string // "good", "bad", "": none
	cookie       string // a Cookie header sent as written (instead of token's), NAME for the server's cookie name, TOKEN for its token
}

// do sends r as written, its path unparsed (a path trick must reach the server as typed).
func (f *fixture) do(r request) (*http.Response, string) {
	f.t.Helper()
	addr := f.srv.Listener.Addr().String()
	form := url.Values{}
	for k, v := range r.form {
		form[k] = v
	}
	switch r.csrf {
	case "good":
		form.Set("csrf", f.ui.csrf)
	case "bad":
		form.Set("csrf", strings.Repeat("0", len(f.ui.csrf)))
	}
	var body io.Reader
	if r.method == http.MethodPost {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(r.method, "http://"+addr+"/", body)
	if err != nil {
		f.t.Fatal(err)
	}
	req.URL.Opaque = r.path // sent exactly as written
	if r.host != "" {
		req.Host = r.host
	}
	if r.method == http.MethodPost {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if r.cookie != "" {
		req.Header.Set("Cookie", strings.NewReplacer("NAME", f.ui.cookieName(), "TOKEN", f.ui.token).Replace(r.cookie))
	}
	switch r.token {
	case "good":
		req.AddCookie(&http.Cookie{Name: f.ui.cookieName(), Value: f.ui.token})
	case "bad":
		req.AddCookie(&http.Cookie{Name: f.ui.cookieName(), Value: strings.Repeat("0", len(f.ui.token))})
	}
	switch r.origin {
	case "":
	case "self":
		req.Header.Set("Origin", "http://"+addr)
	default:
		req.Header.Set("Origin", r.origin)
	}
	if r.site != "" {
		req.Header.Set("Sec-Fetch-Site", r.site)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// TestRefused: what a request must carry to be answered, and that a refused change writes
// nothing. Every answer, refused or not, carries the headers that keep the page out of frames,
// caches and other sites' reach.
func TestRefused(t *testing.T) {
	f := newFixture(t)
	port := fmt.Sprint(f.srv.Listener.Addr().(*net.TCPAddr).Port)
	run := "/store/" + f.storeID + "/run/" + f.applied
	rollback := request{method: "POST", path: run + "/rollback", token: "good", origin: "self", site: "same-origin", csrf: "good", form: url.Values{"confirm": {"yes"}}}
	with := func(r request, change func(*request)) request { change(&r); return r }
	cases := []struct {
		name string
		req  request
		want int
	}{
		{"no token", request{method: "GET", path: "/"}, 403},
		{"wrong token in the URL", request{method: "GET", path: "/?token=" + strings.Repeat("a", 64)}, 403},
		{"wrong cookie", request{method: "GET", path: "/", token: "bad"}, 403},
		{"no token on a memory", request{method: "GET", path: "/store/" + f.storeID + "/memory/hand-notes"}, 403},
		{"the token", request{method: "GET", path: "/", token: "good"}, 200},
		{"a foreign Host (DNS rebinding)", request{method: "GET", path: "/", token: "good", host: "evil.example:" + port}, 403},
		{"another port", request{method: "GET", path: "/", token: "good", host: "127.0.0.1:1"}, 403},
		{"localhost", request{method: "GET", path: "/", token: "good", host: "localhost:" + port}, 200},
		{"the IPv6 loopback, not listened on", request{method: "GET", path: "/", token: "good", host: "[::1]:" + port}, 403},
		{"another loopback address, not listened on", request{method: "GET", path: "/", token: "good", host: "127.0.0.2:" + port}, 403},
		{"a cookie of the same name set by another program, sent first", request{method: "GET", path: "/", cookie: "NAME=bad; NAME=TOKEN"}, 200},
		{"a cookie of the same name set by another program, sent last", request{method: "GET", path: "/", cookie: "NAME=TOKEN; NAME=bad"}, 200},
		{"only a wrong cookie of the name", request{method: "GET", path: "/", cookie: "NAME=bad; other=TOKEN"}, 403},
		{"the token under the port's name alone (guessable, so not the cookie)", request{method: "GET", path: "/", cookie: "dreamd-ui-" + port + "=TOKEN"}, 403},
		{"the token cookie beside one under the port's name", request{method: "GET", path: "/", cookie: "dreamd-ui-" + port + "=bad; NAME=TOKEN"}, 200},
		{"dot segments", request{method: "GET", path: "/store/../../etc/passwd", token: "good"}, 400},
		{"dot segments in a memory", request{method: "GET", path: "/store/" + f.storeID + "/memory/../../../etc/passwd", token: "good"}, 400},
		{"encoded slashes", request{method: "GET", path: "/store/..%2f..%2fetc/memory/passwd", token: "good"}, 400},
		{"encoded dots", request{method: "GET", path: "/store/%2e%2e/memory/passwd", token: "good"}, 400},
		{"encoded backslash", request{method: "GET", path: "/store/" + f.storeID + "/memory/..%5c..%5cx", token: "good"}, 400},
		{"an absolute path as a store", request{method: "GET", path: "/store/%2Fetc/memory/passwd", token: "good"}, 400},
		{"an empty segment", request{method: "GET", path: "/store//etc", token: "good"}, 400},
		{"a dotfile", request{method: "GET", path: "/static/.env", token: "good"}, 400},
		{"a NUL", request{method: "GET", path: "/store/x%00y", token: "good"}, 400},
		{"a store that does not exist", request{method: "GET", path: "/store/etc", token: "good"}, 404},
		{"the store's state dir by another name", request{method: "GET", path: "/store/stores", token: "good"}, 404},
		{"a memory that links out of the store", request{method: "GET", path: "/store/" + f.storeID + "/memory/escape", token: "good"}, 404},
		{"a memory that does not exist", request{method: "GET", path: "/store/" + f.storeID + "/memory/MEMORY", token: "good"}, 404},
		{"a run that does not exist", request{method: "GET", path: "/store/" + f.storeID + "/run/images.json.gz", token: "good"}, 404},
		{"a plan that does not exist", request{method: "GET", path: "/store/" + f.storeID + "/plan/index", token: "good"}, 404},
		{"a GET that tries to roll back", request{method: "GET", path: run + "/rollback?confirm=yes", token: "good"}, 405},
		{"a GET that tries to apply", request{method: "GET", path: "/store/" + f.storeID + "/plan/" + f.plan + "/apply?accept=x", token: "good"}, 405},
		{"PUT", request{method: "PUT", path: "/", token: "good"}, 405},
		{"DELETE", request{method: "DELETE", path: run, token: "good"}, 405},
		{"a change without a token", with(rollback, func(r *request) { r.token = "" }), 403},
		{"a change from another origin", with(rollback, func(r *request) { r.origin, r.site = "http://evil.example", "cross-site" }), 403},
		{"a change from another origin that hides Sec-Fetch-Site", with(rollback, func(r *request) { r.origin, r.site = "http://evil.example", "" }), 403},
		{"a change from an opaque origin", with(rollback, func(r *request) { r.origin, r.site = "null", "" }), 403},
		{"a change a browser calls cross-site", with(rollback, func(r *request) { r.origin, r.site = "", "cross-site" }), 403},
		{"a change from a sibling subdomain", with(rollback, func(r *request) { r.site = "same-site" }), 403},
		{"a change with neither Origin nor Sec-Fetch-Site", with(rollback, func(r *request) { r.origin, r.site = "", "" }), 403},
		{"a change without the CSRF value", with(rollback, func(r *request) { r.csrf = "" }), 403},
		{"a change with a wrong CSRF value", with(rollback, func(r *request) { r.csrf = "bad" }), 403},
		{"a rollback not confirmed", with(rollback, func(r *request) { r.form = nil }), 400},
		{"a rollback of a run that does not exist", with(rollback, func(r *request) { r.path = "/store/" + f.storeID + "/run/nope/rollback" }), 404},
		{"an apply of nothing", request{method: "POST", path: "/store/" + f.storeID + "/plan/" + f.plan + "/apply", token: "good", origin: "self", csrf: "good"}, 400},
		{"an apply of an operation the plan lacks", request{method: "POST", path: "/store/" + f.storeID + "/plan/" + f.plan + "/apply", token: "good", origin: "self", csrf: "good",
			form: url.Values{"accept": {"../../etc/passwd"}}}, 400},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, body := f.do(c.req)
			if resp.StatusCode != c.want {
				t.Errorf("status %d, want %d: %s", resp.StatusCode, c.want, body)
			}
			if strings.Contains(body, outsideMarker) || c.want != 200 && (strings.Contains(body, "deploy.sh") || strings.Contains(body, "hand-notes")) {
				t.Errorf("a refused request was shown a memory: %s", body)
			}
			h := resp.Header
			for k, want := range map[string]string{"X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store", "Referrer-Policy": "same-origin"} {
				if h.Get(k) != want {
					t.Errorf("%s: %q, want %q", k, h.Get(k), want)
				}
			}
			if csp := h.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "frame-ancestors 'none'") {
				t.Errorf("CSP %q", csp)
			}
		})
	}
	if len(f.rollback)+len(f.applies) != 0 {
		t.Errorf("refused requests wrote: rollbacks %v, applies %v", f.rollback, f.applies)
	}
	if resp, body := f.do(rollback); resp.StatusCode != 200 || !strings.Contains(body, "Rolled back by rollback-x") || !slices.Equal(f.rollback, []string{f.applied}) || !slices.Equal(f.forced, []bool{false}) {
		t.Errorf("a rollback from the page: %d %v %v\n%s", resp.StatusCode, f.rollback, f.forced, body)
	}
}

// TestURLAndCookieName: the URL is where the server listens (IPv6 too); the cookie's name has a
// part no other program can know; an address another machine could reach is refused.
func TestURLAndCookieName(t *testing.T) {
	v6, err := New(Options{}, &net.TCPAddr{IP: net.IPv6loopback, Port: 8377})
	if err != nil {
		t.Fatal(err)
	}
	if u := v6.URL(); !strings.HasPrefix(u, "http://[::1]:8377/?token=") || !v6.hostAllowed("[::1]:8377") || v6.hostAllowed("127.0.0.1:8377") {
		t.Errorf("on ::1: URL %s", u)
	}
	other, err := New(Options{}, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8377})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := v6.cookieName(), other.cookieName(); a == b || !strings.HasPrefix(a, "dreamd-ui-8377-") || len(a) != len("dreamd-ui-8377-")+16 {
		t.Errorf("cookie names %q, %q", a, b)
	}
	if _, err := New(Options{}, &net.TCPAddr{IP: net.IPv4(192, 168, 1, 5), Port: 8377}); err == nil {
		t.Error("a web view on a LAN address")
	}
}

// TestRollbackOverHandEdits: a run whose files were changed by hand since is not rolled back
// from the page until "roll back anyway" is ticked, which the page offers naming the files; then
// the rollback is the forced one (dreamd rollback --force).
func TestRollbackOverHandEdits(t *testing.T) {
	f := newFixture(t)
	edited := filepath.Join(f.store, "deploys-go-through-deploy-sh.md")
	b, err := os.ReadFile(edited)
	if err != nil {
		t.Fatal(err)
	}
	f.write(edited, string(b)+"Edited by hand.\n")
	run := "/store/" + f.storeID + "/run/" + f.applied
	if resp, body := f.do(request{method: "GET", path: run, token: "good"}); resp.StatusCode != 200 ||
		!strings.Contains(body, `name="force"`) || !strings.Contains(body, "Roll back anyway (overwrites the hand edits: deploys-go-through-deploy-sh.md)") {
		t.Errorf("the run's page does not offer to roll back over the hand edits: %d\n%s", resp.StatusCode, body)
	}
	post := func(form url.Values) (*http.Response, string) {
		return f.do(request{method: "POST", path: run + "/rollback", token: "good", origin: "self", site: "same-origin", csrf: "good", form: form})
	}
	resp, body := post(url.Values{"confirm": {"yes"}})
	if resp.StatusCode != http.StatusConflict || !strings.Contains(body, `id="refused"`) || !strings.Contains(body, "tick “Roll back anyway”") ||
		strings.Contains(body, "--force") || !strings.Contains(body, `name="force"`) || len(f.rollback) != 0 {
		t.Errorf("a rollback over hand edits, not forced: %d %v\n%s", resp.StatusCode, f.rollback, body)
	}
	if resp, body := post(url.Values{"confirm": {"yes"}, "force": {"yes"}}); resp.StatusCode != 200 || !slices.Equal(f.forced, []bool{true}) {
		t.Errorf("a rollback over hand edits, forced: %d %v\n%s", resp.StatusCode, f.forced, body)
	}
}

// TestRejectEveryOperation: "Reject every operation" on the page is `dreamd apply --skip` of
// every name: the plan is used up, no memory written, MEMORY.md written again, the same files as
// the command line's in a twin state; an apply with nothing ticked applies nothing and says how to
// reject the whole plan.
func TestRejectEveryOperation(t *testing.T) {
	page, cli := newFixture(t), newFixture(t)
	apply := "/store/" + page.storeID + "/plan/" + page.plan + "/apply"
	resp, body := page.do(request{method: "POST", path: apply, token: "good", origin: "self", csrf: "good",
		form: url.Values{"type-use-postgresql-16-database": {"project"}}})
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, `id="problem"`) || !strings.Contains(body, "Reject every operation") ||
		!strings.Contains(body, `name="accept" value="use-postgresql-16-database" id="accept-use-postgresql-16-database">`) || len(page.applies) != 0 {
		t.Fatalf("an apply with nothing ticked: %d %v\n%s", resp.StatusCode, page.applies, body)
	}
	resp, body = page.do(request{method: "POST", path: apply, token: "good", origin: "self", csrf: "good",
		form: url.Values{"reject-all": {"yes"}, "accept": {"use-postgresql-16-database"}}}) // a tick left on does not count
	if resp.StatusCode != 200 || len(page.applies) != 1 || len(page.applies[0].Only) != 0 || len(page.applies[0].Skip) != 2 ||
		!strings.Contains(body, "none: no memory written") {
		t.Fatalf("reject every operation: %d %+v\n%s", resp.StatusCode, page.applies, body)
	}
	known := mustKnown(t, cli)
	p, err := phases.ReadPlan(phases.PendingPlans(known)[0], cli.env.StateDir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := phases.ApplyPlanPart(cli.env, p, phases.Selection{Skip: phases.OperationNames(p)}, false, false); err != nil {
		t.Fatal(err)
	}
	got, want := storeFiles(t, page.store), storeFiles(t, cli.store)
	if !maps.Equal(got, want) {
		t.Errorf("the page's reject-all left %v, dreamd apply --skip of every name %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
	}
	for name := range want {
		if got[name] != want[name] {
			t.Errorf("%s after the page's reject-all:\n%s\nafter --skip:\n%s", name, got[name], want[name])
		}
	}
	if n := len(phases.PendingPlans(mustKnown(t, page))); n != 0 {
		t.Errorf("%d plans still pending after rejecting every operation", n)
	}
}

// storeFiles are a store's regular files (MEMORY.md included) by name, with their content.
func storeFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range entries {
		if !e.Type().IsRegular() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = string(b)
	}
	return out
}

// TestPlanListsWhatTheValidatorDropped: the plan's page lists the operations dreamd took out
// before review and what it mended, with why, as dreamd review's header does.
func TestPlanListsWhatTheValidatorDropped(t *testing.T) {
	f := newFixture(t)
	ref := f.ui.pending([]storeRef{{ID: f.storeID, Paths: mustKnown(t, f)}})[0]
	p, err := phases.ReadPlan(ref.File, f.env.StateDir)
	if err != nil {
		t.Fatal(err)
	}
	page := func(p *phases.Plan) string {
		rec := httptest.NewRecorder()
		f.ui.render(rec, 200, "plan.html", page{Title: "Plan", CSRF: f.ui.csrf, Data: f.ui.viewPlan(ref, p)})
		return rec.Body.String()
	}
	if body := page(p); strings.Contains(body, `id="dropped"`) {
		t.Errorf("a plan with nothing dropped lists a dropped section")
	}
	p.Rejected = append(p.Rejected, extract.Rejected{Operation: extract.Operation{Action: extract.Create, Name: "staging-token", Body: secret}, Reason: "secret (openai-key) in body"})
	p.Repaired = append(p.Repaired, extract.Repaired{Name: "use-postgresql-16-database", What: "merged_from: left out nope (no such memory)"})
	body := page(p)
	for _, w := range []string{`id="dropped"`, "staging-token</strong>: secret (openai-key) in body", `action-create`, "use-postgresql-16-database</strong>: merged_from: left out nope (no such memory)"} {
		if !strings.Contains(body, w) {
			t.Errorf("the plan's page lacks %q:\n%s", w, body)
		}
	}
	if strings.Contains(body, secret) {
		t.Error("the dropped operation's secret is shown")
	}
}

// TestTokenMovesToACookie: the printed URL sets an HttpOnly, SameSite=Strict cookie and sends the
// browser on without the token in its address bar.
func TestTokenMovesToACookie(t *testing.T) {
	f := newFixture(t)
	if !strings.HasPrefix(f.ui.URL(), "http://127.0.0.1:") || len(f.ui.token) != 64 {
		t.Fatalf("URL %s", f.ui.URL())
	}
	resp, _ := f.do(request{method: "GET", path: "/runs?token=" + f.ui.token})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/runs" {
		t.Fatalf("status %d, Location %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	cs := resp.Cookies()
	if len(cs) != 1 || cs[0].Value != f.ui.token || !cs[0].HttpOnly || cs[0].SameSite != http.SameSiteStrictMode || cs[0].Path != "/" {
		t.Errorf("cookies %+v", cs)
	}
}

// TestPages: each page shows what it is for, escaped and redacted.
func TestPages(t *testing.T) {
	f := newFixture(t)
	get := func(path string) string {
		t.Helper()
		resp, body := f.do(request{method: "GET", path: path, token: "good"})
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %d\n%s", path, resp.StatusCode, body)
		}
		return body
	}
	cases := []struct {
		path       string
		want, lack []string
	}{
		{"/", []string{f.store, "project", ">3<", "<svg", "Memories per store over time", "Tokens sent per run", f.plan, f.applied}, nil},
		// Titled by the project it serves, as dreamd status --project names it; its directory below.
		{"/store/" + f.storeID, []string{"<title>/home/ana/shop · dreamd</title>", "<h1>/home/ana/shop</h1>", "project store</span> in <code>" + f.store + "</code>", "deploys-go-through-deploy-sh", "hand-notes", "Notes &lt;b&gt;by hand&lt;/b&gt;", "2026-11-18", f.applied,
			"Not shown: escape.md (links out of the store)"}, []string{"<b>by hand", outsideMarker}},
		{"/store/" + f.storeID + "/memory/hand-notes", []string{"&lt;script&gt;alert(1)&lt;/script&gt;", "name: hand-notes", "No run kept in the history wrote it"}, []string{secret, "<script>"}},
		{"/store/" + f.storeID + "/memory/deploys-go-through-deploy-sh", []string{"Deploys go through ./deploy.sh", "claude:aaaa1111-0000-4000-8000-000000000001", "2026-11-18", f.applied}, nil},
		{"/runs", []string{f.applied, "applied"}, nil},
		{"/store/" + f.storeID + "/run/" + f.applied, []string{`class="add"`, "+++ b/deploys-go-through-deploy-sh.md", `name="confirm"`, `name="csrf" value="` + f.ui.csrf}, nil},
		{"/plans", []string{f.plan, "2"}, nil},
		{"/store/" + f.storeID + "/plan/" + f.plan, []string{`name="accept" value="run-make-lint-before-commit"`, `name="accept" value="use-postgresql-16-database"`,
			"bbbb2222-0000-4000-8000-000000000002</code> 2026-11-20", "+++ b/run-make-lint-before-commit.md", `name="csrf"`,
			`class="quote">“From now on run make lint before every commit.`, "claude:bbbb2222-0000-4000-8000-000000000002</code>, turn 0",
			`<textarea name="body-run-make-lint-before-commit"`}, nil},
	}
	for _, c := range cases {
		body := get(c.path)
		for _, w := range c.want {
			// html/template writes + as &#43;: a diff line is looked for as the browser shows it.
			if !strings.Contains(body, w) && !strings.Contains(html.UnescapeString(body), w) {
				t.Errorf("%s lacks %q", c.path, w)
			}
		}
		for _, l := range c.lack {
			if strings.Contains(body, l) {
				t.Errorf("%s shows %q", c.path, l)
			}
		}
	}
	// An edit the validator refuses writes nothing and shows the plan's page again as the person
	// sent it: the ticks, their text (a credential pasted in redacted), the error beside it.
	for _, c := range []struct {
		name, typ, body string
		want            []string
	}{
		{"a credential pasted in", "project", "The password is " + secret, []string{"The password is [REDACTED:", "secret", "held a credential", `<a href="#op-use-postgresql-16-database">`}},
		{"a type that is none", "bogus", "PostgreSQL 16 on port 5433.", []string{"PostgreSQL 16 on port 5433.", "invalid type"}},
	} {
		resp, body := f.do(request{method: "POST", path: "/store/" + f.storeID + "/plan/" + f.plan + "/apply", token: "good", origin: "self", csrf: "good",
			form: url.Values{"accept": {"use-postgresql-16-database"}, "type-use-postgresql-16-database": {c.typ},
				"description-use-postgresql-16-database": {"We use PostgreSQL 16 here"}, "body-use-postgresql-16-database": {c.body}}})
		want := append([]string{`id="error-use-postgresql-16-database"`, `value="We use PostgreSQL 16 here"`, `<details class="edit" open>`,
			`name="accept" value="use-postgresql-16-database" id="accept-use-postgresql-16-database" checked>`,
			`name="accept" value="run-make-lint-before-commit" id="accept-run-make-lint-before-commit">`}, c.want...)
		if resp.StatusCode != http.StatusConflict || strings.Contains(body, secret) {
			t.Errorf("%s: %d\n%s", c.name, resp.StatusCode, body)
		}
		for _, w := range want {
			if !strings.Contains(body, w) {
				t.Errorf("%s: the page shown again lacks %q", c.name, w)
			}
		}
		if _, err := os.Stat(filepath.Join(f.store, "use-postgresql-16-database.md")); err == nil {
			t.Fatalf("%s: a refused edit was written", c.name)
		}
	}
	f.applies = nil
	// An apply with one operation unticked applies the other only, as --only does.
	resp, body := f.do(request{method: "POST", path: "/store/" + f.storeID + "/plan/" + f.plan + "/apply", token: "good", origin: "self", csrf: "good",
		form: url.Values{"accept": {"use-postgresql-16-database"}}})
	if resp.StatusCode != 200 || len(f.applies) != 1 || !slices.Equal(f.applies[0].Only, []string{"use-postgresql-16-database"}) || len(f.applies[0].Skip) != 0 {
		t.Fatalf("apply: %d %+v\n%s", resp.StatusCode, f.applies, body)
	}
	if !strings.Contains(body, "Rejected</th><td>run-make-lint-before-commit") {
		t.Errorf("the applied page does not say what was rejected:\n%s", body)
	}
	if _, err := os.Stat(filepath.Join(f.store, "use-postgresql-16-database.md")); err != nil {
		t.Error("the accepted memory was not written")
	}
	if _, err := os.Stat(filepath.Join(f.store, "run-make-lint-before-commit.md")); err == nil {
		t.Error("the rejected memory was written")
	}
	home := get("/")
	for _, run := range []string{f.applied, f.plan} {
		if !strings.Contains(home, "memories after apply "+run) {
			t.Errorf("the plot has no point for run %s", run)
		}
	}
}

// TestListenOnlyOnLoopback: an address another machine could reach is refused.
func TestListenOnlyOnLoopback(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0", "192.168.1.5:0", "example.com:0", "127.0.0.1"} {
		if ln, err := Listen(addr); err == nil {
			ln.Close()
			t.Errorf("Listen(%q) listened", addr)
		}
	}
	ln, err := Listen("localhost:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if ip := ln.Addr().(*net.TCPAddr).IP; !ip.IsLoopback() {
		t.Errorf("localhost listened on %v", ip)
	}
}

func TestNiceCeil(t *testing.T) {
	for n, want := range map[int]int{0: 4, 3: 4, 5: 8, 9: 20, 10: 20, 13: 20, 20: 20, 41: 80, 999: 1000, 1001: 2000, 23456: 40000} {
		if got := niceCeil(n); got != want || got < n {
			t.Errorf("niceCeil(%d) = %d, want %d", n, got, want)
		}
	}
}

// FuzzRequestPath: whatever path a request with the token asks for, the answer never shows a file
// outside the stores (the link's target) nor dreamd's own state files (the plan key), and a GET
// never writes.
func FuzzRequestPath(f *testing.F) {
	fx := newFixture(f)
	key, err := os.ReadFile(filepath.Join(fx.env.StateDir, "plan.key"))
	if err != nil || len(key) == 0 {
		f.Fatalf("plan.key: %v", err)
	}
	for _, seed := range []string{"/", "/store/" + fx.storeID, "/store/" + fx.storeID + "/memory/escape", "/store/../plan.key",
		"/store/%2e%2e%2fplan.key", "/static/..%2f..%2fplan.key", "/store/" + fx.storeID + "/run/" + fx.applied, "//etc/passwd", "/store/" + fx.storeID + "/memory/%2Fetc%2Fpasswd"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, path string) {
		if !strings.HasPrefix(path, "/") || strings.ContainsFunc(path, func(r rune) bool { return r <= ' ' || r >= 0x7f || r == '#' || r == '?' }) {
			return // not what a request line can carry as its path
		}
		fx.t = t
		_, body := fx.do(request{method: "GET", path: path, token: "good"})
		if strings.Contains(body, outsideMarker) || strings.Contains(body, string(key)) {
			t.Fatalf("GET %q showed what is outside the stores:\n%s", path, body)
		}
		if len(fx.applies)+len(fx.rollback) > 0 {
			t.Fatalf("GET %q wrote", path)
		}
	})
}

// TestEditsFromTheForm: a form sent back as the page showed it (a textarea's CRLF line ends
// included) is no edit; a changed text of an accepted operation is one, of a rejected one none.
func TestEditsFromTheForm(t *testing.T) {
	f := newFixture(t)
	refs := f.ui.pending([]storeRef{{ID: f.storeID, Paths: mustKnown(t, f)}})
	if len(refs) != 1 {
		t.Fatalf("pending %v", refs)
	}
	ref := refs[0]
	p, err := phases.ReadPlan(ref.File, f.env.StateDir)
	if err != nil {
		t.Fatal(err)
	}
	var shown *editText
	for _, ov := range f.ui.viewPlan(ref, p).Operations {
		if ov.Name == "use-postgresql-16-database" {
			shown = ov.Edit
		}
	}
	if shown == nil {
		t.Fatal("the create offers no edit")
	}
	form := func(typ, desc, body string) *http.Request {
		r := httptest.NewRequest("POST", "/", nil)
		r.PostForm = url.Values{"type-use-postgresql-16-database": {typ}, "description-use-postgresql-16-database": {desc}, "body-use-postgresql-16-database": {body}}
		return r
	}
	accepted := []string{"use-postgresql-16-database"}
	if e := f.ui.edits(form(shown.Type, shown.Description, strings.ReplaceAll(shown.Body, "\n", "\r\n")+"\r\n"), ref, p, accepted); len(e) != 0 {
		t.Errorf("the text as shown is an edit: %+v", e)
	}
	e := f.ui.edits(form("reference", shown.Description, "PostgreSQL 16, on port 5433.\r\n"), ref, p, accepted)
	if len(e) != 1 || e[0].Name != "use-postgresql-16-database" || e[0].Type != "reference" || e[0].Body != "PostgreSQL 16, on port 5433.\n" {
		t.Errorf("edits %+v", e)
	}
	if e := f.ui.edits(form("reference", "x", "y"), ref, p, nil); len(e) != 0 {
		t.Errorf("a rejected operation's form is an edit: %+v", e)
	}
}

func mustKnown(t *testing.T, f *fixture) store.Paths {
	t.Helper()
	known, err := phases.KnownStores(f.env.StateDir)
	if err != nil || len(known) != 1 {
		t.Fatalf("stores %v %v", known, err)
	}
	return known[0]
}

// TestStoreCounts: a run's count is the one it recorded, else worked back from the run after it
// (or now) through that run's changes; a run whose journal is gone ends the working back.
func TestStoreCounts(t *testing.T) {
	n := func(i int) *int { return &i }
	runs := []runView{{ID: "r1"}, {ID: "r2"}, {ID: "r3", Memories: n(7)}, {ID: "r4"}, {ID: "rollback-r4", Kind: "rollback"}}
	deltas := map[string]int{"r2": 2, "r3": 1, "r4": 3, "rollback-r4": -3}
	got := storeCounts(runs, 7, func(r runView) (int, bool) { d, ok := deltas[r.ID]; return d, ok })
	want := map[string]count{
		"rollback-r4": {N: 7, Derived: true},  // now
		"r4":          {N: 10, Derived: true}, // before the rollback took 3 away
		"r3":          {N: 7},                 // recorded
		"r2":          {N: 6, Derived: true},  // r3 created one
		"r1":          {N: 4, Derived: true},  // r2 created two
	}
	if !maps.Equal(got, want) {
		t.Errorf("counts %v, want %v", got, want)
	}
	delete(deltas, "r2") // r2's journal pruned: r1's count cannot be worked out
	got = storeCounts(runs, 7, func(r runView) (int, bool) { d, ok := deltas[r.ID]; return d, ok })
	if _, ok := got["r1"]; ok || got["r2"] != (count{N: 6, Derived: true}) {
		t.Errorf("counts without r2's journal: %v", got)
	}
}

// TestOnlyOneStore: with Only (dreamd ui --store) another store is as absent as one that is not.
func TestOnlyOneStore(t *testing.T) {
	f := newFixture(t)
	f.ui.opt.Only = filepath.Join(t.TempDir(), "other")
	if resp, body := f.do(request{method: "GET", path: "/", token: "good"}); resp.StatusCode != 200 || strings.Contains(body, f.store) || !strings.Contains(body, "No stores yet") {
		t.Errorf("front page with another store only: %d\n%s", resp.StatusCode, body)
	}
	if resp, _ := f.do(request{method: "GET", path: "/store/" + f.storeID, token: "good"}); resp.StatusCode != 404 {
		t.Errorf("the store left out: %d", resp.StatusCode)
	}
	f.ui.opt.Only = f.store
	if resp, body := f.do(request{method: "GET", path: "/", token: "good"}); resp.StatusCode != 200 || !strings.Contains(body, f.store) {
		t.Errorf("front page with the store only: %d", resp.StatusCode)
	}
}

// TestStoreTitle: a store's page is titled by the project it serves (from its cursors), a user or
// team store by its scope, a store never read from by its directory.
func TestStoreTitle(t *testing.T) {
	f := newFixture(t)
	paths := mustKnown(t, f)
	for _, c := range []struct {
		name  string
		ref   storeRef
		title string
	}{
		{"a project store", storeRef{Paths: paths, Shown: "~/x/memory", Scope: memory.ScopeProject}, "/home/ana/shop"},
		{"a user store", storeRef{Paths: paths, Shown: "~/x/memory", Scope: memory.ScopeUser}, "User store"},
		{"a store never read from", storeRef{Paths: store.Paths{Store: t.TempDir(), State: t.TempDir()}, Shown: "~/y/memory", Scope: memory.ScopeProject}, "~/y/memory"},
	} {
		if got, _ := f.ui.storeTitle(c.ref); got != c.title {
			t.Errorf("%s: title %q, want %q", c.name, got, c.title)
		}
	}
}
