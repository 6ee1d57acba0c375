package eval

import (
	"fmt"
	"io"
	"strings"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/report"
)

// Report is a scored evaluation.
type Report struct {
	Consolidator string           `json:"consolidator"`
	Scenarios    []ScenarioResult `json:"scenarios"`
	Categories   []Score          `json:"categories"` // every category with at least one check, in order
	Overall      Score            `json:"overall"`    // every check of every category
	Usage        extract.Usage    `json:"usage"`      // tokens of all passes together
	Failed       int              `json:"failed"`     // passes that failed (their stores unchanged)
}

// Score is how many checks of a category passed.
type Score struct {
	Category string `json:"category"`
	Label    string `json:"label"`
	Passed   int    `json:"passed"`
	Total    int    `json:"total"`
}

// Ratio is the share of checks passed, 0 to 1; 0 with no checks.
func (s Score) Ratio() float64 {
	if s.Total == 0 {
		return 0
	}
	return float64(s.Passed) / float64(s.Total)
}

// Percent is Ratio as a whole percentage, rounded down so 99.5% never shows as 100%.
func (s Score) Percent() int { return s.Passed * 100 / max(s.Total, 1) }

// Category returns the score of one category (zero when it has no checks).
func (r *Report) Category(name string) Score {
	for _, s := range r.Categories {
		if s.Category == name {
			return s
		}
	}
	return Score{Category: name, Label: Labels[name]}
}

func newReport(consolidator string, results []ScenarioResult) *Report {
	r := &Report{Consolidator: consolidator, Scenarios: results, Overall: Score{Category: "overall", Label: "overall"}}
	by := map[string]*Score{}
	for _, res := range results {
		r.Usage.PromptTokens += res.Usage.PromptTokens
		r.Usage.CompletionTokens += res.Usage.CompletionTokens
		if res.Error != "" {
			r.Failed++
		}
		for _, c := range res.Checks {
			s := by[c.Category]
			if s == nil {
				s = &Score{Category: c.Category, Label: Labels[c.Category]}
				by[c.Category] = s
			}
			s.Total++
			r.Overall.Total++
			if c.Pass {
				s.Passed++
				r.Overall.Passed++
			}
		}
	}
	for _, name := range Categories {
		if s := by[name]; s != nil {
			r.Categories = append(r.Categories, *s)
		}
	}
	return r
}

// Formats are the report formats Write knows.
var Formats = []string{"text", "markdown", "json"}

// Write renders the report: a score table and the failed checks (text), the table alone
// (markdown, for a README), or everything (json).
func Write(w io.Writer, format string, r *Report) error {
	switch format {
	case "json":
		return report.JSON(w, r)
	case "markdown":
		return writeMarkdown(w, r)
	case "text", "":
		return writeText(w, r)
	}
	return fmt.Errorf("unknown format %q (one of %s)", format, strings.Join(Formats, ", "))
}

func writeText(w io.Writer, r *Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "dreamd eval: %d scenarios, consolidator %s", len(r.Scenarios), r.Consolidator)
	if r.Usage.PromptTokens+r.Usage.CompletionTokens > 0 {
		fmt.Fprintf(&b, ", %d tokens sent, %d received", r.Usage.PromptTokens, r.Usage.CompletionTokens)
	}
	b.WriteString("\n\n")
	writeTable(&b, append(r.Categories, r.Overall))
	if r.Failed > 0 {
		fmt.Fprintf(&b, "\n%d of %d passes failed; their stores stayed as they started:\n", r.Failed, len(r.Scenarios))
		for _, res := range r.Scenarios {
			if res.Error != "" {
				fmt.Fprintf(&b, "  %s: %s\n", res.Name, res.Error)
			}
		}
	}
	if r.Overall.Passed < r.Overall.Total {
		b.WriteString("\nfailed checks:\n")
		for _, res := range r.Scenarios {
			for _, c := range res.Checks {
				if c.Pass {
					continue
				}
				what := fmt.Sprintf("%s %q", c.Kind, c.Text)
				if c.Note != "" {
					what += " (" + c.Note + ")"
				}
				fmt.Fprintf(&b, "  %s [%s] %s: %s\n", res.Name, c.Category, what, c.Detail)
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeTable writes the scores as a plain-text table, labels left and numbers right aligned.
func writeTable(b *strings.Builder, scores []Score) {
	width := len("category")
	for _, s := range scores {
		width = max(width, len(s.Label))
	}
	fmt.Fprintf(b, "%-*s  %6s  %5s  %5s\n", width, "category", "passed", "total", "score")
	for _, s := range scores {
		fmt.Fprintf(b, "%-*s  %6d  %5d  %4d%%\n", width, s.Label, s.Passed, s.Total, s.Percent())
	}
}

func writeMarkdown(w io.Writer, r *Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%d scenarios, consolidator `%s`\n\n", len(r.Scenarios), r.Consolidator)
	b.WriteString("| category | passed | total | score |\n| --- | ---: | ---: | ---: |\n")
	for _, s := range r.Categories {
		fmt.Fprintf(&b, "| %s | %d | %d | %d%% |\n", s.Label, s.Passed, s.Total, s.Percent())
	}
	fmt.Fprintf(&b, "| **overall** | %d | %d | %d%% |\n", r.Overall.Passed, r.Overall.Total, r.Overall.Percent())
	_, err := io.WriteString(w, b.String())
	return err
}
