// Package webui is the local web view of every store (`dreamd ui`, and the daemon when ui.listen is
// set): each store with its memories, their provenance and history, the timeline of runs with their
// diffs, the pending plans with a decision per operation, and rollback. Pages are rendered on the
// server with html/template; no script runs in them.
//
// The page shows every memory of every store, so it answers only the person who started it: it
// listens on the loopback interface, every request carries the random token of the URL it printed
// (moved to an HttpOnly, SameSite=Strict cookie at the first visit), the Host must be the loopback
// address it listens on (no DNS rebinding), a change is a POST from its own origin carrying the
// form's CSRF value, and a store, memory, run or plan is named in a URL only to be looked up among
// those that exist, never joined into a path.
package webui

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/phases"
	"github.com/dreamd/dreamd/internal/redact"
	"github.com/dreamd/dreamd/internal/store"
)

//go:embed templates/*.html static/*
var assets embed.FS

// Options are what the web view reads and the two writes it may make, which the caller does as
// its command line does (dreamd's driver: journal, history, team push, link refresh).
type Options struct {
	StateDir string
	// Only, when set, is the one store shown (--store): the others are as absent.
	Only     string
	Redactor *redact.Redactor
	// ScopeOf is the scope of the store in a directory (project, user, team).
	ScopeOf func(store string) memory.Scope
	// Apply applies the operations sel accepts of the pending plan in the file plan, as
	// `dreamd apply PLAN --only …` does, and returns the plan applied.
	Apply func(ctx context.Context, plan string, sel phases.Selection) (*phases.Plan, error)
	// Rollback rolls the run back as `dreamd rollback RUN [--force]` does, and returns the
	// rollback's run id: force replaces the files changed by hand since the run.
	Rollback func(ctx context.Context, paths store.Paths, run string, force bool) (string, error)
	// Home is the home directory, shown as ~; "" shows paths whole.
	Home string
	Now  func() time.Time
	Log  *slog.Logger
}

// Server is the web view bound to one loopback port.
type Server struct {
	opt    Options
	token  string // the secret of the printed URL: 256 random bits, hex
	csrf   string // the forms' value: derived from the token, so only a page it served knows it
	cookie string // the cookie's name: per port, with a part derived from the token (cookieName)
	host   string // the loopback address and port listened on, as a URL writes them
	ip     net.IP
	port   string
	pages  *template.Template
	mux    *http.ServeMux
	write  sync.Mutex // one change at a time: an apply and a rollback of one store never interleave

	deltaMu sync.Mutex
	deltas  map[string]int // per store/run: memories added less removed (its journal's, read once)
}

// Listen opens a listener on addr, which must be a loopback address (config.LoopbackAddr checks the
// configured one; this refuses any other too, whatever the caller checked).
func Listen(addr string) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("listen %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("listen %q: not a loopback address (127.0.0.1, ::1 or localhost): the web view shows every memory, and only this machine may reach it", addr)
	}
	if host == "localhost" {
		// Resolved here, to the loopback address itself: a resolver's answer is not trusted.
		_, port, _ := net.SplitHostPort(addr)
		addr = net.JoinHostPort("127.0.0.1", port)
	}
	return net.Listen("tcp", addr)
}

// New is the web view for a listener on the loopback address addr, with a fresh token.
func New(opt Options, addr *net.TCPAddr) (*Server, error) {
	if addr == nil || !addr.IP.IsLoopback() {
		return nil, fmt.Errorf("web view on %v: not a loopback address", addr)
	}
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, err
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Log == nil {
		opt.Log = slog.New(slog.DiscardHandler)
	}
	if opt.ScopeOf == nil {
		opt.ScopeOf = func(string) memory.Scope { return memory.ScopeProject }
	}
	port := strconv.Itoa(addr.Port)
	s := &Server{opt: opt, token: hex.EncodeToString(b[:]), port: port, ip: addr.IP, deltas: map[string]int{}}
	s.host = net.JoinHostPort(addr.IP.String(), port)
	derive := func(what string) string {
		mac := hmac.New(sha256.New, []byte(s.token))
		mac.Write([]byte(what))
		return hex.EncodeToString(mac.Sum(nil))
	}
	s.csrf = derive("dreamd ui csrf")
	// Cookies ignore ports: any program on this machine can set a cookie for 127.0.0.1 that the
	// browser sends here too. A name no other program can know keeps such a cookie from
	// shadowing this one (and the token check takes every cookie of the name anyway).
	s.cookie = "dreamd-ui-" + port + "-" + derive("dreamd ui cookie")[:16]
	pages, err := template.New("").Funcs(funcs).ParseFS(assets, "templates/*.html")
	if err != nil {
		return nil, err
	}
	s.pages = pages
	s.routes()
	return s, nil
}

// URL is the address to open, token included: http://127.0.0.1:PORT/?token=….
func (s *Server) URL() string {
	return "http://" + s.host + "/?token=" + s.token
}

// Serve answers on ln until ctx ends.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(s.opt.Log.Handler(), slog.LevelDebug)}
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shut)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

func (s *Server) routes() {
	m := http.NewServeMux()
	m.HandleFunc("GET /{$}", s.home)
	m.HandleFunc("GET /static/style.css", s.style)
	m.HandleFunc("GET /store/{store}", s.storePage)
	m.HandleFunc("GET /store/{store}/memory/{name}", s.memoryPage)
	m.HandleFunc("GET /runs", s.runsPage)
	m.HandleFunc("GET /store/{store}/run/{run}", s.runPage)
	m.HandleFunc("POST /store/{store}/run/{run}/rollback", s.rollback)
	m.HandleFunc("GET /plans", s.plansPage)
	m.HandleFunc("GET /store/{store}/plan/{plan}", s.planPage)
	m.HandleFunc("POST /store/{store}/plan/{plan}/apply", s.apply)
	s.mux = m
}

// cookieName is per port and per token: browsers share cookies between the ports of a host, two
// web views (the daemon's and `dreamd ui`) have two tokens, and another program must not be able
// to name it.
func (s *Server) cookieName() string { return s.cookie }

// ServeHTTP checks every request before any page sees it: headers set, Host, path, token, and for
// a change its origin and CSRF value.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	// same-origin, not no-referrer: under no-referrer a browser sends "Origin: null" with the
	// page's own POST, which crossOrigin must refuse. No token is in a URL past the first visit.
	h.Set("Referrer-Policy", "same-origin")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	if !s.hostAllowed(r.Host) {
		// DNS rebinding: a page of another site whose name now resolves to 127.0.0.1 sends its own Host.
		http.Error(w, "forbidden: this web view answers only to its loopback address", http.StatusForbidden)
		return
	}
	if why := pathTrick(r); why != "" {
		http.Error(w, "bad request: "+why, http.StatusBadRequest)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead && r.Method != http.MethodPost {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if q := r.URL.Query().Get("token"); q != "" {
		if !s.tokenOK(q) {
			http.Error(w, "forbidden: wrong token (use the URL dreamd ui printed)", http.StatusForbidden)
			return
		}
		// The token moves into a cookie and out of the address bar, the history and any Referer.
		http.SetCookie(w, &http.Cookie{Name: s.cookieName(), Value: s.token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		u := *r.URL
		q := u.Query()
		q.Del("token")
		u.RawQuery = q.Encode()
		http.Redirect(w, r, u.RequestURI(), http.StatusSeeOther)
		return
	}
	if !s.cookieOK(r) {
		http.Error(w, "forbidden: open the URL dreamd ui printed (it carries the token)", http.StatusForbidden)
		return
	}
	if r.Method == http.MethodPost {
		if why := s.crossOrigin(r); why != "" {
			http.Error(w, "forbidden: "+why, http.StatusForbidden)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, 1<<20)
		if err := r.ParseForm(); err != nil {
			http.Error(w, "bad request: "+err.Error(), http.StatusBadRequest)
			return
		}
		if subtle.ConstantTimeCompare([]byte(r.PostForm.Get("csrf")), []byte(s.csrf)) != 1 {
			http.Error(w, "forbidden: the form's CSRF value is missing or wrong (reload the page)", http.StatusForbidden)
			return
		}
	}
	s.mux.ServeHTTP(w, r)
}

// cookieOK reports whether any cookie of the name carries the token: a browser sends every cookie
// of a name whose path matches, one set by another program first perhaps; each is compared in
// constant time.
func (s *Server) cookieOK(r *http.Request) bool {
	ok := false
	for _, c := range r.CookiesNamed(s.cookieName()) {
		if s.tokenOK(c.Value) {
			ok = true
		}
	}
	return ok
}

func (s *Server) tokenOK(got string) bool {
	return subtle.ConstantTimeCompare([]byte(got), []byte(s.token)) == 1
}

// hostAllowed reports whether host (the request's Host) is this server's address and port: the
// loopback address it listens on, or localhost. Another loopback address (::1 for a server on
// 127.0.0.1) is no DNS rebinding, but it is not where the server is: it is refused, plainly.
func (s *Server) hostAllowed(host string) bool {
	h, port, err := net.SplitHostPort(host)
	if err != nil || port != s.port {
		return false
	}
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.Equal(s.ip)
}

// crossOrigin says why a POST is not from a page of this server: its Origin is another's, or the
// browser says the request is cross-site. A POST that gives neither is refused too: every browser
// sends Origin with a form's POST.
func (s *Server) crossOrigin(r *http.Request) string {
	origin := r.Header.Get("Origin")
	site := r.Header.Get("Sec-Fetch-Site")
	if site != "" && site != "same-origin" {
		return "a change must come from this web view's own page (Sec-Fetch-Site: " + site + ")"
	}
	if origin == "" {
		if site == "same-origin" {
			return ""
		}
		return "a change must come from this web view's own page (no Origin)"
	}
	if origin != "http://"+r.Host {
		return "a change must come from this web view's own page (Origin " + origin + ")"
	}
	return ""
}

// pathTrick says what is wrong with a request path that tries to reach beyond the names the routes
// look up: dot segments, encoded slashes or backslashes, NUL, empty segments. Names are looked up
// among what exists anyway; this refuses the attempt plainly instead of redirecting it.
func pathTrick(r *http.Request) string {
	raw := r.URL.EscapedPath()
	if r.URL.RawPath != "" || strings.ContainsAny(r.URL.Path, "\\\x00") {
		return "encoded or special characters in the path"
	}
	low := strings.ToLower(r.RequestURI)
	if strings.Contains(low, "%2f") || strings.Contains(low, "%5c") || strings.Contains(low, "%00") || strings.Contains(low, "%2e") {
		return "encoded characters in the path"
	}
	if !strings.HasPrefix(raw, "/") {
		return "not an absolute path"
	}
	for seg := range strings.SplitSeq(raw[1:], "/") {
		if seg == "." || seg == ".." || strings.HasPrefix(seg, ".") {
			return "dot segments in the path"
		}
	}
	if strings.Contains(raw, "//") {
		return "empty segments in the path"
	}
	return ""
}

// render writes the page named with data, or a plain error when the template fails.
func (s *Server) render(w http.ResponseWriter, status int, page string, data any) {
	var b strings.Builder
	if err := s.pages.ExecuteTemplate(&b, page, data); err != nil {
		s.opt.Log.Error("web view: rendering a page", "page", page, "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(b.String()))
}

// fail renders the error page.
func (s *Server) fail(w http.ResponseWriter, status int, title, detail string) {
	s.render(w, status, "error.html", page{Title: title, Nav: "", Data: detail, CSRF: s.csrf})
}

func (s *Server) style(w http.ResponseWriter, _ *http.Request) {
	b, err := assets.ReadFile("static/style.css")
	if err != nil {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/css; charset=utf-8")
	_, _ = w.Write(b)
}

// page is what every template gets: the title, the menu entry to mark, the CSRF value for its
// forms, and the page's own data.
type page struct {
	Title string
	Nav   string
	CSRF  string
	Data  any
}
