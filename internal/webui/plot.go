package webui

import (
	"fmt"
	"html"
	"html/template"
	"strings"
	"time"
)

// The plots are inline SVG drawn here, on the server: no script, no chart library, and colours as
// presentation attributes, which the page's CSP (no inline style) allows.

// palette is one colour per store, distinct for colour-blind readers (Okabe–Ito).
var palette = []string{"#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442", "#000000"}

const (
	plotW, plotH                         = 720, 220
	padL, padR, padT, padB               = 48, 16, 12, 28
	legendRow                            = 18
	noData                 template.HTML = `<p class="muted">Nothing to plot yet.</p>`
)

// point is one (time, value) of a series.
type point struct {
	T time.Time
	V int
	// Label is the point's tooltip.
	Label string
}

// series is one line of a plot.
type series struct {
	Name   string
	Points []point
}

// memoriesPlot draws how many memories each store held over time: a point per run kept in the
// history (the count it recorded, else one derived from it, see counts) and the count now.
func memoriesPlot(stores []storeRef, runs []runView, counts map[string]map[string]count, now map[string]int, at time.Time) template.HTML {
	var all []series
	for _, st := range stores {
		sr := series{Name: st.Shown}
		for _, r := range runs {
			c, ok := counts[st.ID][r.ID]
			if r.Store.ID != st.ID || !ok {
				continue
			}
			how := ""
			if c.Derived {
				how = " (derived from the runs' changes)"
			}
			sr.Points = append(sr.Points, point{T: r.Time, V: c.N, Label: fmt.Sprintf("%s: %d memories after %s %s%s", r.Time.Local().Format("2006-01-02 15:04"), c.N, r.Kind, r.ID, how)})
		}
		sr.Points = append(sr.Points, point{T: at, V: now[st.ID], Label: fmt.Sprintf("now: %d memories", now[st.ID])})
		all = append(all, sr)
	}
	return linePlot("Memories per store over time", all)
}

// count is how many memories a store held after a run.
type count struct {
	N       int
	Derived bool // not recorded by the run: worked back from the count after the next run and that run's changes
}

// storeCounts are the memories the store held after each of its runs (oldest first), by run id: the
// count a run recorded (history meta "memories"), else worked back from the run after it, less
// what that run created and plus what it removed (delta, from its journal); the newest run works
// back from now. A run whose journal cannot be read ends the working back (older runs without a
// recorded count are not plotted). Hand edits between runs are not in any journal, so a derived
// count is as the history tells it.
func storeCounts(runs []runView, now int, delta func(runView) (int, bool)) map[string]count {
	out := map[string]count{}
	next, known := now, true // the count before the run after i (or now)
	for i := len(runs) - 1; i >= 0; i-- {
		r := runs[i]
		var c count
		switch {
		case r.Memories != nil:
			c = count{N: *r.Memories}
		case known:
			c = count{N: next, Derived: true}
		default:
			continue
		}
		out[r.ID] = c
		d, ok := delta(r)
		next, known = c.N-d, ok
	}
	return out
}

// linePlot draws series as lines over a shared time axis, with a legend below.
func linePlot(title string, all []series) template.HTML {
	if len(all) == 0 {
		return noData
	}
	var t0, t1 time.Time
	top := 1
	for _, s := range all {
		for _, p := range s.Points {
			if t0.IsZero() || p.T.Before(t0) {
				t0 = p.T
			}
			if p.T.After(t1) {
				t1 = p.T
			}
			top = max(top, p.V)
		}
	}
	if !t1.After(t0) {
		t0 = t0.Add(-time.Hour)
	}
	top = niceCeil(top)
	h := plotH + legendRow*len(all)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="plot" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-label="%s" xmlns="http://www.w3.org/2000/svg">`, plotW, h, plotW, h, html.EscapeString(title))
	axes(&b, top)
	fmt.Fprintf(&b, `<text x="%d" y="%d" class="tick">%s</text>`, padL, plotH-8, stamp(t0, t1))
	fmt.Fprintf(&b, `<text x="%d" y="%d" class="tick" text-anchor="end">%s</text>`, plotW-padR, plotH-8, stamp(t1, t0))
	x := func(t time.Time) float64 {
		return padL + float64(plotW-padL-padR)*float64(t.Sub(t0))/float64(t1.Sub(t0))
	}
	y := func(v int) float64 { return float64(plotH-padB) - float64(plotH-padB-padT)*float64(v)/float64(top) }
	for i, s := range all {
		colour := palette[i%len(palette)]
		var pts []string
		for _, p := range s.Points {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(p.T), y(p.V)))
		}
		fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>`, colour, strings.Join(pts, " "))
		for _, p := range s.Points {
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3.5" fill="%s"><title>%s</title></circle>`, x(p.T), y(p.V), colour, html.EscapeString(s.Name+" — "+p.Label))
		}
		ly := plotH + legendRow*i + 4
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="12" height="12" fill="%s"/><text x="%d" y="%d" class="legend">%s</text>`, padL, ly, colour, padL+18, ly+11, html.EscapeString(s.Name))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String()) // #nosec: every text in it is escaped above
}

// tokensPlot draws the tokens each run sent to the model (its prompts), the newest 40 runs.
func tokensPlot(runs []runView) template.HTML {
	var bars []runView
	for _, r := range runs {
		if r.Kind != "rollback" {
			bars = append(bars, r)
		}
	}
	bars = bars[max(0, len(bars)-40):]
	top := 0
	for _, r := range bars {
		top = max(top, r.Tokens)
	}
	if top == 0 {
		return `<p class="muted">No tokens sent yet: the offline consolidator makes no model call.</p>`
	}
	top = niceCeil(top)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="plot" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-label="Tokens sent per run" xmlns="http://www.w3.org/2000/svg">`, plotW, plotH, plotW, plotH)
	axes(&b, top)
	slot := float64(plotW-padL-padR) / float64(len(bars))
	width := min(28, max(2, slot*0.7)) // a few runs make no slabs
	for i, r := range bars {
		hgt := float64(plotH-padB-padT) * float64(r.Tokens) / float64(top)
		x := padL + slot*float64(i) + (slot-width)/2
		label := fmt.Sprintf("%s, %s: %d tokens sent (%d cached), %d received", r.ID, r.Store.Shown, r.Tokens, r.Cached, r.Received)
		fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#0072b2"><title>%s</title></rect>`, x, float64(plotH-padB)-hgt, width, hgt, html.EscapeString(label))
	}
	t0, t1 := bars[0].Time, bars[len(bars)-1].Time
	fmt.Fprintf(&b, `<text x="%d" y="%d" class="tick">%s</text>`, padL, plotH-8, stamp(t0, t1))
	fmt.Fprintf(&b, `<text x="%d" y="%d" class="tick" text-anchor="end">%s</text>`, plotW-padR, plotH-8, stamp(t1, t0))
	b.WriteString(`</svg>`)
	return template.HTML(b.String()) // #nosec: every text in it is escaped above
}

// stamp labels the time t of an axis whose other end is other: the day, and the time of day too
// when both ends fall within two days.
func stamp(t, other time.Time) string {
	if d := t.Sub(other); d < 48*time.Hour && d > -48*time.Hour {
		return t.Local().Format("2006-01-02 15:04")
	}
	return t.Local().Format("2006-01-02")
}

// axes draws the frame and four horizontal grid lines from 0 to top.
func axes(b *strings.Builder, top int) {
	for i := 0; i <= 4; i++ {
		v := top * i / 4
		y := float64(plotH-padB) - float64(plotH-padB-padT)*float64(i)/4
		fmt.Fprintf(b, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>`, padL, plotW-padR, y, y)
		fmt.Fprintf(b, `<text x="%d" y="%.1f" class="tick" text-anchor="end">%d</text>`, padL-6, y+4, v)
	}
	fmt.Fprintf(b, `<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#888"/>`, padL, plotW-padR, plotH-padB, plotH-padB)
}

// niceCeil rounds n up to four times a round step (1, 2, 2.5 or 5 times a power of ten), so the
// four grid lines are labelled with round numbers.
func niceCeil(n int) int {
	if n <= 4 {
		return 4
	}
	for p := 1; ; p *= 10 {
		for _, m := range []int{10, 20, 25, 50} {
			if step := m * p / 10; step*4 >= n {
				return step * 4
			}
		}
	}
}
