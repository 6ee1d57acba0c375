package main

import (
	"bufio"
	"context"
	"io"
	"maps"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dreamd/dreamd/internal/testutil/llmtest"
)

// chromium is the headless browser the web view's end-to-end tests drive: Debian's chromium
// package. Without it the tests skip, saying so, except in CI (CI=true), where scripts/test.sh
// installs it and its absence is a failure.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium is not installed, and CI must run the browser tests (scripts/test.sh installs it with apt-get when CI=true)")
	}
	t.Skip("chromium is not installed: the web view's browser tests need it (apt-get install chromium)")
	return ""
}

// reviewSandbox is a store of four hand-written memories and two sessions whose pass (mixedOps:
// three creates and a delete, two of them what a reviewer rejects) is left pending for review.
func reviewSandbox(t *testing.T) (*sandbox, string) {
	t.Helper()
	srv := llmtest.New(llmtest.Reply{Content: mixedOps()})
	t.Cleanup(srv.Close)
	s := newSandbox(t, llmConfig(srv.BaseURL())+"apply: review\n")
	for _, name := range []string{"old-notes", "style", "build", "team"} {
		s.write(shopStore+"/"+name+".md", "---\nname: "+name+"\ndescription: About "+name+"\ntype: project\n---\nSomething about "+name+".\n")
	}
	s.write(sessionAPath, sessionA)
	s.write(sessionBPath, sessionB)
	mustRun(t, s, "run", "--once")
	pending, _ := filepath.Glob(s.path(".local/state/dreamd/stores/*/pending/*.json"))
	if len(pending) != 1 {
		t.Fatalf("pending plans: %v", pending)
	}
	return s, strings.TrimSuffix(filepath.Base(pending[0]), ".json")
}

// runUIServer runs `dreamd ui` in the sandbox and returns the URL it printed; the server stops with
// the test.
func runUIServer(t *testing.T, s *sandbox) string {
	t.Helper()
	cmd := exec.Command(binary, "--config", s.config, "ui")
	cmd.Env, cmd.Dir = s.env, s.home
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errb strings.Builder
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("dreamd ui's stderr:\n%s", errb.String())
		}
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("dreamd ui printed no URL: %v\n%s", err, errb.String())
	}
	go io.Copy(io.Discard, out) //nolint:errcheck // the rest of stdout, so the server never blocks on it
	u := regexp.MustCompile(`http://127\.0\.0\.1:\d+/\?token=[0-9a-f]{64}`).FindString(line)
	if u == "" {
		t.Fatalf("dreamd ui printed %q", line)
	}
	return u
}

// relFiles are the store's files by their name in the store.
func relFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for p, content := range memoryFiles(t, dir) {
		rel, _ := filepath.Rel(dir, p)
		out[rel] = content
	}
	return out
}

// TestUIReviewAndRollbackInABrowser drives `dreamd ui` in headless Chromium as a person would: it
// opens the printed URL, goes to the pending plan, unticks the two operations a reviewer rejects
// edits the text of one it accepts, and applies; the store is then byte for byte what
// `dreamd apply --only … --edit` of the same decisions makes in a twin sandbox. Then it rolls that run back from the run's page, and the store is as before.
// The same server refuses a request without the token, a change from another origin and a path
// that reaches out of the stores.
func TestUIReviewAndRollbackInABrowser(t *testing.T) {
	browser := chromium(t)
	page, planID := reviewSandbox(t)
	cli, cliPlan := reviewSandbox(t)
	mem := page.path(shopStore)
	before := relFiles(t, mem)
	// One accepted operation is edited: on the page in its form, on the command line with --edit.
	const editedDescription = "Deploys go through ./deploy.sh on a clean tree"
	const editedBody = "Deploys run through ./deploy.sh.\n\n**Why:** it refuses a dirty git tree.\n"
	cli.write("edit.md", "---\nname: deploy-with-deploy-sh\ntype: project\ndescription: "+editedDescription+"\n---\n"+editedBody)
	mustRun(t, cli, "apply", cliPlan, "--only", "deploy-with-deploy-sh,lint-before-commit", "--edit", "deploy-with-deploy-sh="+cli.path("edit.md"))
	want := relFiles(t, cli.path(shopStore))

	link := runUIServer(t, page)
	// DREAMD_UI_SHOTS keeps the screenshots in a directory of one's choosing, to look at them.
	shots := os.Getenv("DREAMD_UI_SHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	// The whole browser session is bounded: a page that never shows what a step waits for fails
	// the test instead of hanging it.
	bounded, stop := context.WithTimeout(context.Background(), 60*time.Second)
	defer stop()
	alloc, cancel := chromedp.NewExecAllocator(bounded,
		chromedp.ExecPath(browser), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 1000))
	defer cancel()
	ctx, cancel := chromedp.NewContext(alloc)
	defer cancel()
	// Each step in turn; a step that fails ends the test, naming it.
	step := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			shown, _ := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("body"), chromedp.AtLeast(0)))
			t.Fatalf("%s in the browser: %v; the page shows:\n%s", what, err, shown)
		}
	}
	text := func(what string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("main")))
		if err != nil {
			t.Fatalf("reading %s in the browser: %v", what, err)
		}
		return s
	}
	shot := func(name string) {
		t.Helper()
		b, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)) // 100: PNG
		if err == nil {
			err = os.WriteFile(filepath.Join(shots, name+".png"), b, 0o644)
		}
		if err != nil {
			t.Fatalf("screenshot %s: %v", name, err)
		}
	}
	planLink := chromedp.CSS(`a[href*="/plan/` + planID + `"]`)

	step("opening the printed URL", chromedp.Navigate(link), chromedp.WaitVisible(planLink))
	location, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	home := text("the front page")
	shot("home")
	step("opening the pending plan", chromedp.Click(planLink), chromedp.WaitVisible(chromedp.ID("apply")))
	step("unticking two operations", chromedp.Click(chromedp.ID("accept-laptop-deploys")), chromedp.Click(chromedp.ID("accept-old-notes")))
	step("editing one", chromedp.Click(chromedp.CSS(`article:has(#accept-deploy-with-deploy-sh) details.edit summary`)),
		chromedp.WaitVisible(chromedp.ID("body-deploy-with-deploy-sh")),
		chromedp.SetValue(chromedp.ID("description-deploy-with-deploy-sh"), editedDescription),
		chromedp.SetValue(chromedp.ID("body-deploy-with-deploy-sh"), editedBody))
	planPage := text("the plan's page")
	shot("plan")
	step("applying", chromedp.Click(chromedp.ID("apply")), chromedp.WaitVisible(chromedp.CSS("p.done")))
	applied := text("the applied page")
	shot("applied")
	t.Logf("screenshots in %s", shots)

	if strings.Contains(location, "token=") {
		t.Errorf("the token stayed in the address bar: %s", location)
	}
	for _, w := range []string{"~/.claude/projects/-home-ana-shop/memory", "project", "Memories per store over time", "Tokens sent per run"} {
		if !strings.Contains(home, w) {
			t.Errorf("the front page lacks %q:\n%s", w, home)
		}
	}
	for _, w := range []string{"laptop-deploys", "Reason: guessed", "bbbb2222-0000-4000-8000-000000000002 2026-11-20", "+++ b/lint-before-commit.md", "old-notes",
		"“Remember that deploys go through ./deploy.sh, which refuses a dirty git tree.”"} {
		if !strings.Contains(planPage, w) {
			t.Errorf("the plan's page lacks %q:\n%s", w, planPage)
		}
	}
	if !strings.Contains(applied, "Applied plan "+planID) || !strings.Contains(applied, "laptop-deploys, old-notes") || !strings.Contains(applied, "Edited\tdeploy-with-deploy-sh") {
		t.Errorf("after the apply the page says:\n%s", applied)
	}
	if got := relFiles(t, mem); !maps.Equal(got, want) {
		names := maps.Clone(got)
		maps.Copy(names, want)
		for _, name := range slices.Sorted(maps.Keys(names)) {
			if got[name] != want[name] {
				t.Errorf("%s after the page's apply:\n%s\nafter dreamd apply --only:\n%s", name, got[name], want[name])
			}
		}
	}

	// The front page again: the run applied is plotted (its memories, the tokens its call sent).
	step("going back to the front page", chromedp.Navigate(strings.Split(link, "?")[0]), chromedp.WaitVisible(chromedp.CSS(`svg[aria-label="Tokens sent per run"] rect`)))
	shot("home-after")
	step("opening the run", chromedp.Click(chromedp.CSS(`a[href*="/run/`+planID+`"]`)), chromedp.WaitVisible(chromedp.ID("rollback")))
	shot("run")
	step("rolling back", chromedp.Click(chromedp.CSS(`input[name="confirm"]`)), chromedp.Click(chromedp.ID("rollback")), chromedp.WaitVisible(chromedp.CSS("p.done")))
	rolled := text("the rolled-back page")
	shot("rolled-back")
	if !strings.Contains(rolled, "Rolled back by rollback-") {
		t.Errorf("after the rollback the page says:\n%s", rolled)
	}
	if got := relFiles(t, mem); !maps.Equal(got, before) {
		t.Errorf("the rollback did not restore the store: %v, want %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(before)))
	}
	for _, name := range []string{"home", "plan", "applied", "home-after", "run", "rolled-back"} {
		if fi, err := os.Stat(filepath.Join(shots, name+".png")); err != nil || fi.Size() < 1000 {
			t.Errorf("screenshot %s: %v", name, err)
		}
	}

	// The same server, attacked: no token, another origin, a path out of the stores.
	u, _ := url.Parse(link)
	base := "http://" + u.Host
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	cookie := uiCookie(t, client, link)
	attack := func(method, path, cookie, origin string, form url.Values) int {
		t.Helper()
		req, err := http.NewRequest(method, base+"/", strings.NewReader(form.Encode()))
		if err != nil {
			t.Fatal(err)
		}
		req.URL.Opaque = path
		if cookie != "" {
			req.Header.Set("Cookie", cookie)
		}
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	stores, _ := filepath.Glob(page.path(".local/state/dreamd/stores/*"))
	storeID := filepath.Base(stores[0])
	for _, c := range []struct {
		name                 string
		method, path, cookie string
		origin               string
		want                 int
	}{
		{"no token", "GET", "/store/" + storeID, "", "", 403},
		{"the token", "GET", "/store/" + storeID, cookie, "", 200},
		{"a rollback from another origin", "POST", "/store/" + storeID + "/run/" + planID + "/rollback", cookie, "http://evil.example", 403},
		{"a rollback without the form's CSRF value", "POST", "/store/" + storeID + "/run/" + planID + "/rollback", cookie, base, 403},
		{"a path out of the stores", "GET", "/store/..%2f..%2f..%2fetc/memory/passwd", cookie, "", 400},
		{"dot segments", "GET", "/store/" + storeID + "/memory/../../../../etc/passwd", cookie, "", 400},
	} {
		if got := attack(c.method, c.path, c.cookie, c.origin, url.Values{"confirm": {"yes"}}); got != c.want {
			t.Errorf("%s: status %d, want %d", c.name, got, c.want)
		}
	}
	if got := relFiles(t, mem); !maps.Equal(got, before) {
		t.Error("a refused request changed the store")
	}
}

// uiCookie is the cookie the printed URL sets, as a Cookie header: its name is not the port's
// alone, so a test learns it as a browser does.
func uiCookie(t *testing.T, client *http.Client, link string) string {
	t.Helper()
	resp, err := client.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	cs := resp.Cookies()
	if resp.StatusCode != http.StatusSeeOther || len(cs) != 1 || !strings.HasPrefix(cs[0].Name, "dreamd-ui-") {
		t.Fatalf("the printed URL answered %d, cookies %v", resp.StatusCode, cs)
	}
	return cs[0].Name + "=" + cs[0].Value
}

// TestUIRejectEveryOperationAsTheCLIDoes: "Reject every operation" on the page of `dreamd ui`
// leaves the store and the state as `dreamd apply --skip` of every name does in a twin sandbox:
// no memory written, MEMORY.md written again, the plan used up.
func TestUIRejectEveryOperationAsTheCLIDoes(t *testing.T) {
	page, planID := reviewSandbox(t)
	cli, cliPlan := reviewSandbox(t)
	mustRun(t, cli, "apply", cliPlan, "--skip", "deploy-with-deploy-sh,laptop-deploys,lint-before-commit,old-notes")
	want := relFiles(t, cli.path(shopStore))

	link := runUIServer(t, page)
	u, _ := url.Parse(link)
	base := "http://" + u.Host
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	cookie := uiCookie(t, client, link)
	stores, _ := filepath.Glob(page.path(".local/state/dreamd/stores/*"))
	planPath := "/store/" + filepath.Base(stores[0]) + "/plan/" + planID
	req, _ := http.NewRequest("GET", base+planPath, nil)
	req.Header.Set("Cookie", cookie)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	csrf := regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`).FindSubmatch(b)
	if resp.StatusCode != 200 || csrf == nil || !strings.Contains(string(b), `id="reject-all"`) {
		t.Fatalf("the plan's page: %d\n%s", resp.StatusCode, b)
	}
	// The form as a browser sends it with "Reject every operation" pressed: the ticks left on.
	form := url.Values{"csrf": {string(csrf[1])}, "reject-all": {"yes"}, "accept": {"deploy-with-deploy-sh", "lint-before-commit"}}
	req, _ = http.NewRequest("POST", base+planPath+"/apply", strings.NewReader(form.Encode()))
	req.Header.Set("Cookie", cookie)
	req.Header.Set("Origin", base)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err = client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), "none: no memory written") {
		t.Fatalf("reject every operation: %d\n%s", resp.StatusCode, b)
	}
	if got := relFiles(t, page.path(shopStore)); !maps.Equal(got, want) {
		for _, name := range slices.Sorted(maps.Keys(want)) {
			if got[name] != want[name] {
				t.Errorf("%s after the page's reject-all:\n%s\nafter dreamd apply --skip of every name:\n%s", name, got[name], want[name])
			}
		}
		t.Errorf("files %v, want %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
	}
	for _, s := range []*sandbox{page, cli} {
		if pending, _ := filepath.Glob(s.path(".local/state/dreamd/stores/*/pending/*.json")); len(pending) != 0 {
			t.Errorf("plans still pending: %v", pending)
		}
	}
}

// TestUIRollbackOverHandEditsThroughTheDriver: `dreamd ui` refuses to roll back a run whose
// files were changed by hand since, saying so in the page's terms and changing nothing, until
// "roll back anyway" is ticked; then the store is as before the run (dreamd rollback --force).
func TestUIRollbackOverHandEditsThroughTheDriver(t *testing.T) {
	s, planID := reviewSandbox(t)
	mem := s.path(shopStore)
	before := relFiles(t, mem)
	mustRun(t, s, "apply", planID)
	edited := filepath.Join(mem, "lint-before-commit.md")
	b, err := os.ReadFile(edited)
	if err != nil {
		t.Fatal(err)
	}
	s.write(shopStore+"/lint-before-commit.md", string(b)+"Edited by hand.\n")
	handEdited := relFiles(t, mem)

	link := runUIServer(t, s)
	u, _ := url.Parse(link)
	base := "http://" + u.Host
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	cookie := uiCookie(t, client, link)
	stores, _ := filepath.Glob(s.path(".local/state/dreamd/stores/*"))
	run := "/store/" + filepath.Base(stores[0]) + "/run/" + planID
	send := func(method, path string, form url.Values) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(method, base+path, strings.NewReader(form.Encode()))
		req.Header.Set("Cookie", cookie)
		req.Header.Set("Origin", base)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	code, body := send("GET", run, nil)
	csrf := regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`).FindStringSubmatch(body)
	if code != 200 || csrf == nil || !strings.Contains(body, "Roll back anyway (overwrites the hand edits: lint-before-commit.md)") {
		t.Fatalf("the run's page: %d\n%s", code, body)
	}
	code, body = send("POST", run+"/rollback", url.Values{"csrf": {csrf[1]}, "confirm": {"yes"}})
	if code != http.StatusConflict || !strings.Contains(body, "tick “Roll back anyway”") || strings.Contains(body, "--force") {
		t.Errorf("a rollback over hand edits, not forced: %d\n%s", code, body)
	}
	if got := relFiles(t, mem); !maps.Equal(got, handEdited) {
		t.Error("a refused rollback changed the store")
	}
	code, body = send("POST", run+"/rollback", url.Values{"csrf": {csrf[1]}, "confirm": {"yes"}, "force": {"yes"}})
	if code != 200 || !strings.Contains(body, "Rolled back by rollback-") {
		t.Errorf("a rollback over hand edits, forced: %d\n%s", code, body)
	}
	if got := relFiles(t, mem); !maps.Equal(got, before) {
		t.Errorf("the forced rollback did not restore the store: %v, want %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(before)))
	}
}

// TestUIRefusesAnAddressOthersCanReach: --listen and ui.listen take loopback addresses only.
func TestUIRefusesAnAddressOthersCanReach(t *testing.T) {
	s := newSandbox(t, offlineConfig)
	for _, addr := range []string{"0.0.0.0:8377", ":8377", "192.168.1.5:8377", "[::]:8377"} {
		if _, errOut, code := s.run("ui", "--listen", addr); code != exitUsage || !strings.Contains(errOut, "loopback") {
			t.Errorf("--listen %s: exit %d, %s", addr, code, errOut)
		}
	}
	s.write("dreamd.yaml", offlineConfig+"ui: {listen: '0.0.0.0:8377'}\n")
	if _, errOut, code := s.run("ui"); code != exitUsage || !strings.Contains(errOut, "ui.listen") {
		t.Errorf("ui.listen 0.0.0.0: exit %d, %s", code, errOut)
	}
}

// TestDaemonServesTheUI: with ui.listen set the daemon serves the web view, writes its URL (with
// the token) to <state_dir>/ui.url readable by the user only, and logs the file, not the token.
func TestDaemonServesTheUI(t *testing.T) {
	s := newSandbox(t, offlineConfig+"schedule: \"@every 1h\"\nui: {listen: '127.0.0.1:0'}\n")
	s.write(sessionAPath, sessionA)
	cmd := exec.Command(binary, "--config", s.config, "run")
	cmd.Env, cmd.Dir = s.env, s.home
	var stderr syncBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
	}()
	file := s.path(".local/state/dreamd/ui.url")
	var link string
	for deadline := time.Now().Add(20 * time.Second); ; {
		if b, err := os.ReadFile(file); err == nil && strings.HasSuffix(string(b), "\n") {
			link = strings.TrimSpace(string(b))
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s within 20s:\n%s", file, stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("%s: %v, mode %v", file, err, fi.Mode())
	}
	u, err := url.Parse(link)
	if err != nil || u.Query().Get("token") == "" {
		t.Fatalf("ui.url holds %q", link)
	}
	if strings.Contains(stderr.String(), u.Query().Get("token")) {
		t.Errorf("the daemon logged the token:\n%s", stderr.String())
	}
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	resp, err := client.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "Memory stores") {
		t.Errorf("the daemon's web view: %d\n%s", resp.StatusCode, body)
	}
	if resp, err := http.Get("http://" + u.Host + "/"); err != nil || resp.StatusCode != 403 {
		t.Errorf("without the token: %v %v", resp, err)
	}
}
