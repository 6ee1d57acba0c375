package offline

import (
	"slices"
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/extract"
)

// TestMannersOf reads the manner of answering a message asks for, in the languages the rules
// read, and none where the words describe the code or the task.
func TestMannersOf(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"Sois technique, concis, et privilégie l'efficacité système.", []string{"technical", "concise"}},
		{"Sois extrêmement technique, utilise un ton direct et évite les avertissements génériques.", []string{"technical", "direct"}},
		{"Please be concise.", []string{"concise"}},
		{"keep it short and direct", []string{"brief", "direct"}},
		{"now the signup page, and be concise", []string{"concise"}},
		{"answer briefly", []string{"brief"}},
		{"Sé conciso, por favor", []string{"concise"}},
		{"Bitte sei knapp und präzise", []string{"concise", "precise"}},
		{"回答要简洁", []string{"concise"}},
		{"简短回答就行", []string{"brief"}},
		{"簡潔に答えて", []string{"concise"}},
		{"будь кратким", []string{"brief"}},
		// the code's manner, not the answers'
		{"the function should be short", nil},
		{"use a short variable name", nil},
		{"代码要简洁", nil},
		{"写一个简洁的说明文档", nil},
		{"que el código sea conciso", nil},
		{"be careful with the migration", nil},
	}
	for _, tt := range tests {
		if got := mannersOf(tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("mannersOf(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// TestMannerLesson remembers how the person wants to be answered once two messages asked for it,
// in the user's store, and nothing of one message.
func TestMannerLesson(t *testing.T) {
	twice := replied("s1", "Voilà.", "Sois technique, concis, et privilégie l'efficacité système.", "applique cela",
		"Sois extrêmement technique, utilise un ton direct et évite les avertissements génériques.")
	ops := run(t, nil, twice).Response.Operations
	i := slices.IndexFunc(ops, func(op extract.Operation) bool { return strings.Contains(op.Description, "wants answers") })
	if i < 0 {
		t.Fatalf("operations %+v, want how the person wants answers", briefs(ops))
	}
	if op := ops[i]; op.Description != "The person wants answers that are technical, concise and direct." || op.Type != "user" ||
		!strings.Contains(op.Body, "asked for by the person in their 1st and 3rd messages of session s1") {
		t.Errorf("memory %q (%s):\n%s", op.Description, op.Type, op.Body)
	}
	resent := replied("s1", "Done.", "Please be concise. Fix the login page.", "Please be concise. Fix the login page.")
	for _, op := range run(t, nil, resent).Response.Operations {
		if strings.Contains(op.Description, "wants answers") {
			t.Errorf("a message sent again gave %q", op.Description)
		}
	}
	once := replied("s1", "Done.", "Please be concise.", "now fix the login page")
	for _, op := range run(t, nil, once).Response.Operations {
		if strings.Contains(op.Description, "wants answers") {
			t.Errorf("one message gave %q", op.Description)
		}
	}
}
