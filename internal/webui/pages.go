package webui

import (
	"cmp"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/phases"
	"github.com/dreamd/dreamd/internal/store"
)

var funcs = template.FuncMap{
	"day":  func(t time.Time) string { return t.Local().Format("2006-01-02 15:04") },
	"join": func(s []string) string { return strings.Join(s, ", ") },
	"orDash": func(s string) string {
		if s == "" {
			return "–"
		}
		return s
	},
	"dollars": func(usd float64) string {
		if usd == 0 {
			return "–"
		}
		return fmt.Sprintf("$%.4f", usd)
	},
	"deref": func(n *int) string {
		if n == nil {
			return "–"
		}
		return fmt.Sprint(*n)
	},
}

type homeData struct {
	Stores       []storeSummary
	Pending      []planRef
	Recent       []runView
	MemoriesPlot template.HTML
	TokensPlot   template.HTML
}

func (s *Server) home(w http.ResponseWriter, _ *http.Request) {
	stores, err := s.stores()
	if err != nil {
		s.fail(w, http.StatusInternalServerError, "Cannot list the stores", err.Error())
		return
	}
	d := homeData{Pending: s.pending(stores)}
	runs := s.runs(stores)
	counts := map[string]int{}
	for _, st := range stores {
		sum := storeSummary{storeRef: st, Pending: len(phases.PendingPlans(st.Paths))}
		if loaded, err := store.Load(st.Paths.Store); err != nil {
			sum.Err = err.Error()
		} else {
			sum.Memories = len(loaded.Memories)
		}
		counts[st.ID] = sum.Memories
		var mine []runView
		for _, r := range runs {
			if r.Store.ID == st.ID {
				mine = append(mine, r)
			}
		}
		sum.Runs, sum.LastRun = len(mine), latest(mine)
		d.Stores = append(d.Stores, sum)
	}
	perRun := map[string]map[string]count{}
	for _, st := range stores {
		var mine []runView
		for _, r := range runs {
			if r.Store.ID == st.ID {
				mine = append(mine, r)
			}
		}
		perRun[st.ID] = storeCounts(mine, counts[st.ID], s.delta)
	}
	d.MemoriesPlot = memoriesPlot(stores, runs, perRun, counts, s.opt.Now())
	d.TokensPlot = tokensPlot(runs)
	d.Recent = slices.Clone(runs)
	slices.Reverse(d.Recent)
	d.Recent = d.Recent[:min(len(d.Recent), 10)]
	s.render(w, http.StatusOK, "home.html", page{Title: "Memory stores", Nav: "stores", CSRF: s.csrf, Data: d})
}

type storeData struct {
	Store    storeRef
	Projects []string // the projects it serves
	Memories []memoryView
	Outside  []string
	Pending  []planRef
	Runs     []runView
}

func (s *Server) storePage(w http.ResponseWriter, r *http.Request) {
	st, ok := s.lookupStore(r.PathValue("store"))
	if !ok {
		s.fail(w, http.StatusNotFound, "No such store", "dreamd knows no store by that name.")
		return
	}
	loaded, err := store.Load(st.Paths.Store)
	if err != nil {
		s.fail(w, http.StatusInternalServerError, "Cannot read the store", err.Error())
		return
	}
	used, _ := phases.LoadUsed(st.Paths)
	cites, _ := phases.LoadCitations(st.Paths)
	title, projects := s.storeTitle(st)
	d := storeData{Store: st, Projects: projects, Outside: loaded.Outside, Pending: s.pending([]storeRef{st})}
	for _, m := range loaded.Memories {
		d.Memories = append(d.Memories, s.viewMemory(m, used, cites.Stale))
	}
	d.Runs = s.runs([]storeRef{st})
	slices.Reverse(d.Runs)
	s.render(w, http.StatusOK, "store.html", page{Title: title, Nav: "stores", CSRF: s.csrf, Data: d})
}

type memoryData struct {
	Store  storeRef
	Memory memoryView
	Runs   []runView
}

func (s *Server) memoryPage(w http.ResponseWriter, r *http.Request) {
	st, ok := s.lookupStore(r.PathValue("store"))
	if !ok {
		s.fail(w, http.StatusNotFound, "No such store", "dreamd knows no store by that name.")
		return
	}
	loaded, err := store.Load(st.Paths.Store)
	if err != nil {
		s.fail(w, http.StatusInternalServerError, "Cannot read the store", err.Error())
		return
	}
	name := r.PathValue("name")
	i := slices.IndexFunc(loaded.Memories, func(m *store.Memory) bool { return m.Name == name })
	if i < 0 {
		s.fail(w, http.StatusNotFound, "No such memory", "The store holds no memory by that name.")
		return
	}
	m := loaded.Memories[i]
	// Load keeps a link only when it resolves inside the store; checked again, as the link may
	// have moved since.
	if m.Link && !store.LinksInside(filepath.Join(st.Paths.Store, m.Name+".md"), st.Paths.Store) {
		s.fail(w, http.StatusForbidden, "Not shown", "The memory's file is a link out of the store.")
		return
	}
	used, _ := phases.LoadUsed(st.Paths)
	cites, _ := phases.LoadCitations(st.Paths)
	d := memoryData{Store: st, Memory: s.viewMemory(m, used, cites.Stale), Runs: memoryRuns(s.runs([]storeRef{st}), m.Name)}
	s.render(w, http.StatusOK, "memory.html", page{Title: m.Name, Nav: "stores", CSRF: s.csrf, Data: d})
}

func (s *Server) runsPage(w http.ResponseWriter, _ *http.Request) {
	stores, err := s.stores()
	if err != nil {
		s.fail(w, http.StatusInternalServerError, "Cannot list the stores", err.Error())
		return
	}
	runs := s.runs(stores)
	slices.Reverse(runs)
	s.render(w, http.StatusOK, "runs.html", page{Title: "Runs", Nav: "runs", CSRF: s.csrf, Data: runs})
}

type runData struct {
	Run  runView
	Diff []diffLine
	Err  string
	Done string // what the page's POST just did
	// HandEdits are the store files changed by hand since the run, which rolling it back replaces:
	// the page asks for an explicit "roll back anyway" before it does.
	HandEdits []string
	Refused   string // why the page's rollback did not happen
}

// lookupRun finds the run named in the request among the runs of the store named.
func (s *Server) lookupRun(r *http.Request) (runView, bool) {
	st, ok := s.lookupStore(r.PathValue("store"))
	if !ok {
		return runView{}, false
	}
	runs := s.runs([]storeRef{st})
	i := slices.IndexFunc(runs, func(v runView) bool { return v.ID == r.PathValue("run") })
	if i < 0 {
		return runView{}, false
	}
	return runs[i], true
}

func (s *Server) runPage(w http.ResponseWriter, r *http.Request) {
	run, ok := s.lookupRun(r)
	if !ok {
		s.fail(w, http.StatusNotFound, "No such run", "The store's history holds no run by that id.")
		return
	}
	s.renderRun(w, http.StatusOK, run, "", "")
}

func (s *Server) renderRun(w http.ResponseWriter, status int, run runView, done, refused string) {
	d := runData{Run: run, Done: done, Refused: refused}
	if run.Rollbackable() {
		// Read-only, and checked again under the store's lock by the rollback itself.
		d.HandEdits, _ = store.HandEdits(run.Store.Paths, run.ID)
	}
	if changes, err := store.RunChanges(run.Store.Paths, run.ID); err != nil {
		d.Err = "the run's diff cannot be read: " + err.Error()
	} else {
		// The journal keeps the files as they were, for rollback; what is shown is redacted.
		d.Diff = diffLines(store.Diff(changes, s.opt.Redactor))
	}
	s.render(w, status, "run.html", page{Title: "Run " + run.ID, Nav: "runs", CSRF: s.csrf, Data: d})
}

// rollback rolls the run back, as `dreamd rollback RUN` does; when files were changed by hand
// since the run, only with the form's "roll back anyway" ticked (--force), which the page offers
// naming those files.
func (s *Server) rollback(w http.ResponseWriter, r *http.Request) {
	run, ok := s.lookupRun(r)
	if !ok {
		s.fail(w, http.StatusNotFound, "No such run", "The store's history holds no run by that id.")
		return
	}
	if r.PostForm.Get("confirm") != "yes" {
		s.fail(w, http.StatusBadRequest, "Not rolled back", "Tick the box that confirms the rollback.")
		return
	}
	if s.opt.Rollback == nil {
		s.fail(w, http.StatusForbidden, "Read-only", "This web view makes no changes.")
		return
	}
	force := r.PostForm.Get("force") == "yes"
	handEdited := func() string {
		edited, _ := store.HandEdits(run.Store.Paths, run.ID)
		if len(edited) == 0 {
			return ""
		}
		return "Not rolled back: " + strings.Join(edited, ", ") + " changed by hand since this run, and rolling it back would replace those edits. " +
			"To do so all the same, tick “Roll back anyway” below and press the button again (the rollback's own run keeps the edits: rolling the rollback back restores them)."
	}
	if !force {
		if why := handEdited(); why != "" {
			s.renderRun(w, http.StatusConflict, run, "", why)
			return
		}
	}
	s.write.Lock()
	id, err := s.opt.Rollback(r.Context(), run.Store.Paths, run.ID, force)
	s.write.Unlock()
	if err != nil {
		why := "Not rolled back: " + err.Error()
		if errors.Is(err, phases.ErrRefused) && !force {
			// Edited by hand between the page's check and the rollback's: said in the page's terms.
			why = cmp.Or(handEdited(), why)
		}
		s.renderRun(w, http.StatusConflict, run, "", why)
		return
	}
	if again, ok := s.lookupRun(r); ok {
		run = again
	}
	s.renderRun(w, http.StatusOK, run, "Rolled back by "+id+": the store is as it was before this run.", "")
}

func (s *Server) plansPage(w http.ResponseWriter, _ *http.Request) {
	stores, err := s.stores()
	if err != nil {
		s.fail(w, http.StatusInternalServerError, "Cannot list the stores", err.Error())
		return
	}
	var plans []planView
	for _, ref := range s.pending(stores) {
		p, err := phases.ReadPlan(ref.File, s.opt.StateDir)
		if err != nil {
			plans = append(plans, planView{Ref: ref, Err: err.Error()})
			continue
		}
		plans = append(plans, s.viewPlan(ref, p))
	}
	s.render(w, http.StatusOK, "plans.html", page{Title: "Pending plans", Nav: "plans", CSRF: s.csrf, Data: plans})
}

// lookupPlan finds the pending plan named in the request among the store's pending plans.
func (s *Server) lookupPlan(r *http.Request) (planRef, bool) {
	st, ok := s.lookupStore(r.PathValue("store"))
	if !ok {
		return planRef{}, false
	}
	plans := s.pending([]storeRef{st})
	i := slices.IndexFunc(plans, func(p planRef) bool { return p.ID == r.PathValue("plan") })
	if i < 0 {
		return planRef{}, false
	}
	return plans[i], true
}

func (s *Server) planPage(w http.ResponseWriter, r *http.Request) {
	ref, ok := s.lookupPlan(r)
	if !ok {
		s.fail(w, http.StatusNotFound, "No such plan", "No pending plan of the store has that run id (it may be applied or discarded already).")
		return
	}
	p, err := phases.ReadPlan(ref.File, s.opt.StateDir)
	if err != nil {
		s.fail(w, http.StatusConflict, "Cannot read the plan", err.Error())
		return
	}
	s.render(w, http.StatusOK, "plan.html", page{Title: "Plan " + ref.ID, Nav: "plans", CSRF: s.csrf, Data: s.viewPlan(ref, p)})
}

type appliedData struct {
	Plan         planRef
	Run          string
	Accepted     []string
	Rejected     []string
	Edited       []string
	Files        []string
	Retired      int
	OfferedAgain int // sessions that fed only rejected operations, offered to the next pass again
}

// apply applies the operations the form ticks, with the person's edits, or none of them when the
// form's "Reject every operation" was pressed: `dreamd review` answering r to each, or
// `dreamd apply --skip` of every name, which consume the plan and write MEMORY.md again. A
// refusal (an edit the validator refuses, the store changed since) shows the plan's page again as
// the person sent it, the error beside the operation it is about, nothing applied.
func (s *Server) apply(w http.ResponseWriter, r *http.Request) {
	ref, ok := s.lookupPlan(r)
	if !ok {
		s.fail(w, http.StatusNotFound, "No such plan", "No pending plan of the store has that run id (it may be applied or discarded already).")
		return
	}
	p, err := phases.ReadPlan(ref.File, s.opt.StateDir)
	if err != nil {
		s.fail(w, http.StatusConflict, "Cannot read the plan", err.Error())
		return
	}
	names := phases.OperationNames(p)
	for _, n := range r.PostForm["accept"] {
		if !slices.Contains(names, n) {
			s.fail(w, http.StatusBadRequest, "Not applied", "The plan has no operation on that memory.")
			return
		}
	}
	rejectAll := r.PostForm.Get("reject-all") == "yes"
	var accepted, rejected []string
	for _, n := range names {
		if !rejectAll && slices.Contains(r.PostForm["accept"], n) {
			accepted = append(accepted, n)
		} else {
			rejected = append(rejected, n)
		}
	}
	if len(accepted) == 0 && !rejectAll {
		v := s.viewPlanAsSent(ref, p, r)
		v.Problem = "Nothing is ticked, so nothing was applied. To reject the whole plan, press “Reject every operation”: " +
			"as dreamd review does when every operation is rejected, the plan is then used up, no memory is written, and the sessions are offered to the next pass again."
		s.render(w, http.StatusBadRequest, "plan.html", page{Title: "Plan " + ref.ID, Nav: "plans", CSRF: s.csrf, Data: v})
		return
	}
	if s.opt.Apply == nil {
		s.fail(w, http.StatusForbidden, "Read-only", "This web view makes no changes.")
		return
	}
	sel := phases.Selection{Skip: names}
	if !rejectAll {
		sel = phases.Selection{Only: accepted, Edits: s.edits(r, ref, p, accepted)}
	}
	s.write.Lock()
	done, err := s.opt.Apply(r.Context(), ref.File, sel)
	s.write.Unlock()
	if errors.Is(err, phases.ErrNoOperation) {
		s.fail(w, http.StatusBadRequest, "Not applied", err.Error())
		return
	}
	if err != nil {
		v := s.viewPlanAsSent(ref, p, r)
		v.Problem = "Nothing was applied: " + s.red(err.Error())
		if i := opNamedIn(v.Operations, err.Error()); i >= 0 {
			v.Operations[i].Err = s.red(err.Error())
			v.Operations[i].Open = true
			v.Problem, v.ProblemAt = "Nothing was applied: see the error at "+v.Operations[i].Name+" below.", v.Operations[i].Name
		}
		s.render(w, http.StatusConflict, "plan.html", page{Title: "Plan " + ref.ID, Nav: "plans", CSRF: s.csrf, Data: v})
		return
	}
	d := appliedData{Plan: ref, Run: done.RunID, Accepted: accepted, Rejected: rejected, Edited: done.Edited, Retired: len(done.Retired), OfferedAgain: len(done.OfferedAgain)}
	for _, c := range done.Changes {
		d.Files = append(d.Files, c.Name)
	}
	s.render(w, http.StatusOK, "applied.html", page{Title: "Applied " + ref.ID, Nav: "plans", CSRF: s.csrf, Data: d})
}

// opNamedIn is the index of the operation an apply's error is about (phases names it as
// "…: NAME: why"), the longest name when several fit; -1 for none.
func opNamedIn(ops []opView, msg string) int {
	at := -1
	for i, ov := range ops {
		if strings.Contains(msg, ": "+ov.Name+": ") && (at < 0 || len(ov.Name) > len(ops[at].Name)) {
			at = i
		}
	}
	return at
}

// viewPlanAsSent is the plan's page as the person's form left it: what they ticked, the text they
// wrote in each edit (redacted as everything shown is: a credential pasted in is not sent back).
func (s *Server) viewPlanAsSent(ref planRef, p *phases.Plan, r *http.Request) planView {
	v := s.viewPlan(ref, p)
	for i := range v.Operations {
		ov := &v.Operations[i]
		ov.Accepted = slices.Contains(r.PostForm["accept"], ov.Name)
		if ov.Edit == nil {
			continue
		}
		typ, ok1 := formField(r, "type-"+ov.Name)
		desc, ok2 := formField(r, "description-"+ov.Name)
		body, ok3 := formField(r, "body-"+ov.Name)
		if !ok1 || !ok2 || !ok3 {
			continue
		}
		if typ != ov.Edit.Type || desc != ov.Edit.Description || strings.TrimSpace(body) != strings.TrimSpace(ov.Edit.Body) {
			ov.Open = true
		}
		ov.Edit.Type, ov.Edit.Description, ov.Edit.Body = typ, s.red(desc), s.red(body)
		ov.Redacted = ov.Edit.Description != desc || ov.Edit.Body != body
	}
	return v
}

// formField is the one value the form sent for key, its line ends LF (a textarea sends CRLF).
func formField(r *http.Request, key string) (string, bool) {
	v, ok := r.PostForm[key]
	if !ok || len(v) != 1 {
		return "", false
	}
	return strings.ReplaceAll(v[0], "\r\n", "\n"), true
}

// edits are the person's edits among the accepted operations: each form whose type, description or
// body differs from what the page showed (a textarea sends CRLF line ends; they are read as LF).
// What the validator makes of an edit is the apply's to say.
func (s *Server) edits(r *http.Request, ref planRef, p *phases.Plan, accepted []string) []phases.Edit {
	var out []phases.Edit
	for _, ov := range s.viewPlan(ref, p).Operations {
		if ov.Edit == nil || !slices.Contains(accepted, ov.Name) {
			continue
		}
		typ, ok1 := formField(r, "type-"+ov.Name)
		desc, ok2 := formField(r, "description-"+ov.Name)
		body, ok3 := formField(r, "body-"+ov.Name)
		if !ok1 || !ok2 || !ok3 {
			continue // the form sent no text for it: accepted as it is
		}
		// Space around the body is not compared: a browser drops a textarea's leading newline.
		if typ == ov.Edit.Type && desc == ov.Edit.Description && strings.TrimSpace(body) == strings.TrimSpace(ov.Edit.Body) {
			continue
		}
		out = append(out, phases.Edit{Name: ov.Name, Type: memory.Type(typ), Description: desc, Body: body})
	}
	return out
}

// delta is how many memories the run added to its store (less those it removed), from its journal,
// cached: a committed run's journal does not change.
func (s *Server) delta(r runView) (int, bool) {
	key := r.Store.ID + "/" + r.ID
	s.deltaMu.Lock()
	d, ok := s.deltas[key]
	s.deltaMu.Unlock()
	if ok {
		return d, true
	}
	changes, err := store.RunChanges(r.Store.Paths, r.ID)
	if err != nil {
		return 0, false
	}
	d = phases.MemoriesAfter(0, changes)
	s.deltaMu.Lock()
	s.deltas[key] = d
	s.deltaMu.Unlock()
	return d, true
}
