package offline

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/transcript"
)

// messagesOf lays out sessions of one project as the person's messages, in order: each session
// is its messages' texts.
func messagesOf(sessions ...[]string) []personMessage {
	var out []personMessage
	for i, texts := range sessions {
		s := &extract.Session{ID: "s" + string(rune('1'+i)), Project: "/home/ana/shop", Date: day(10 + i)}
		for j, text := range texts {
			out = append(out, personMessage{session: s, message: j + 1, text: text})
		}
	}
	return out
}

func TestStandingInstructions(t *testing.T) {
	tests := []struct {
		name     string
		sessions [][]string
		want     []string // the clauses kept, as first said
	}{
		{"a suffix appended to different requests", [][]string{{
			"帮我把登录页的按钮改成蓝色。use context7",
			"继续",
			"给订单列表加一个分页。use context7",
			"好的",
			"把日期格式改成 YYYY-MM-DD。use context7",
		}}, []string{"use context7"}},
		{"a step of the moment asked each time it is due", [][]string{{
			"Añade el nivel 3 con verbos irregulares. Haz un push.",
			"El botón de reinicio no funciona en el móvil.",
			"Cambia los colores del marcador. Haz un push.",
			"ok",
			"Arregla el sonido del nivel 2. Haz un push.",
		}}, nil},
		{"a Chinese how-to-work said in two sessions", [][]string{
			{"下载进度一直是0，看下日志。先别写代码，先分析原因。"},
			{"暂停以后无法恢复下载。先别写代码，先分析原因。"},
		}, []string{"先别写代码，先分析原因。"}},
		{"a French instruction said in three messages", [][]string{{
			"Ajoute un bouton pour exporter la carte. Parle-moi en français.",
			"Le zoom ne marche plus sur Firefox.",
			"Corrige la couleur des liens. Parle-moi en français !",
			"ok",
			"Le menu doit se fermer après un clic. parle moi en francais",
		}}, []string{"Parle-moi en français."}},
		{"a template's header at the start of two sessions", [][]string{
			{"You are helping build a Business Central extension. Keep the specification document updated as decisions are made.\nStart by asking me ten questions about the data model."},
			{"You are helping build a Business Central extension. Keep the specification document updated as decisions are made.\nThe folder layout is wrong, move the codeunits to src/codeunits."},
		}, []string{"Keep the specification document updated as decisions are made."}},
		{"a template suffix of two instructions", [][]string{{
			"Add a CSV export to the report page.\nThink step by step and run the tests after.",
			"Does the export need a header row?",
			"Rename the Invoice model to Bill everywhere.\nThink step by step and run the tests after.",
			"yes",
			"The checkout total ignores the discount code.\nthink step by step, and run the tests after",
		}}, []string{"Think step by step and run the tests after."}},
		{"a suffix appended to every message", [][]string{{
			"Add a CSV export to the report page. Reply in English.",
			"Rename the Invoice model to Bill. Reply in English.",
			"The checkout total ignores the discount. Reply in English.",
			"Move the filters to the sidebar. Reply in English.",
			"Paginate the orders list. Reply in English.",
		}}, []string{"Reply in English."}},
		{"a Spanish prohibition in two sessions", [][]string{
			{"Agrega validación al formulario de registro. No uses jQuery."},
			{"El carrito no guarda los productos. No uses jQuery."},
		}, []string{"No uses jQuery."}},

		{"the same prompt sent again after a failure", [][]string{{
			"Add a login page with email and password fields. Use Tailwind for the styling.",
			"Add a login page with email and password fields. Use Tailwind for the styling.",
			"Add a login page with email and password fields, and a remember-me box. Use Tailwind for the styling.",
		}}, nil},
		{"a task asked in a row while it fails", [][]string{{
			"The upload times out on big files. Add a retry to the upload.",
			"Still times out, see the log above. Add a retry to the upload.",
			"Same error on the staging server. Add a retry to the upload.",
		}}, nil},
		{"a clause that is the whole message", [][]string{
			{"continue", "Keep the tests green.", "continue"},
			{"Keep the tests green.", "继续"},
		}, nil},
		{"acknowledgements and questions beside requests", [][]string{{
			"Thanks. Now add the search bar.",
			"Thanks. The footer overlaps the content.",
			"Thanks. Can you make the logo bigger?",
			"tiene sentido? Cambia el color del botón.",
			"El menú no abre. tiene sentido?",
			"Borra el archivo viejo. tiene sentido?",
		}}, nil},
		{"the lines of a pasted error", [][]string{{
			"Still broken:\n[plugin:vite:react-babel] src/App.tsx: Unexpected token (12:4)\n  12 | }\n\nClick outside, press Esc key, or fix the code to dismiss.\nYou can also disable this overlay by setting server.hmr.overlay to false in vite.config.ts.",
			"Now this:\n[plugin:vite:react-babel] src/Map.tsx: Unexpected token (40:2)\n  40 | )\n\nClick outside, press Esc key, or fix the code to dismiss.\nYou can also disable this overlay by setting server.hmr.overlay to false in vite.config.ts.",
			"And again after the fix:\n[plugin:vite:react-babel] src/Tree.tsx: Unexpected token (7:1)\n  7 | ]\n\nClick outside, press Esc key, or fix the code to dismiss.\nYou can also disable this overlay by setting server.hmr.overlay to false in vite.config.ts.",
		}}, nil},
		{"log lines that read as prose", [][]string{{
			"Nothing shows in the app.\n🔄 Opening a file...\n📁 Working directory: /app\nCreating an optimized production build ...",
			"Still nothing.\n🔄 Opening a file...\n📁 Working directory: /app\nCreating an optimized production build ...",
			"The tree is empty.\n🔄 Opening a file...\n📁 Working directory: /app\nCreating an optimized production build ...",
		}}, nil},
		{"a header of what follows", [][]string{{
			"fix npm run build:\n./app/page.tsx",
			"The build broke again.\nfix npm run build:",
			"Another one.\nfix npm run build:",
		}}, nil},
		{"clauses that lean on their message", [][]string{
			{"El reporte de ventas falla. Analiza esto.", "For each question give options. Explain the pros and cons of each."},
			{"El pedido sale duplicado. Analiza esto.", "Pick a chart library. Explain the pros and cons of each."},
		}, nil},
		{"words of the moment", [][]string{
			{"The search is slow. Fais-le maintenant.", "这个按钮太小了。这次先用红色。"},
			{"La carte ne charge pas. Fais-le maintenant.", "列表没有刷新。这次先用红色。"},
		}, nil},
		{"statements that recur", [][]string{
			{"This is still failing. The log is below.", "Como ves en el screenshot, el pedido está duplicado. Arréglalo."},
			{"This is still failing. Is there a way to see the Railway logs?", "Como ves en el screenshot, el pedido está duplicado. Mira el carrito."},
		}, nil},
		{"a clause said in one session twice", [][]string{{
			"Add the export button. Keep the old API.",
			"The date picker is off by one day.",
			"Move the filters to the sidebar. Keep the old API.",
		}}, nil},
		{"other projects do not count", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, si := range standingInstructions(messagesOf(tt.sessions...), agentWords{}) {
				got = append(got, si.clause)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestStandingInstructionsPerProject(t *testing.T) {
	shop := &extract.Session{ID: "a", Project: "/home/ana/shop", Date: day(10)}
	blog := &extract.Session{ID: "b", Project: "/home/ana/blog", Date: day(11)}
	msgs := []personMessage{
		{session: shop, message: 1, text: "Add a search bar. Keep the changelog updated."},
		{session: blog, message: 1, text: "Write the about page. Keep the changelog updated."},
	}
	if got := standingInstructions(msgs, agentWords{}); len(got) != 0 {
		t.Errorf("a clause said once in each of two projects is kept: %+v", got)
	}
}

func TestInstructionShape(t *testing.T) {
	tests := []struct {
		clause string
		lang   string
		ok     bool
	}{
		{"use context7", "", true},
		{"Keep the migrations reversible.", "", true},
		{"When writing AL code, follow the guidelines of the AL team.", "", true},
		{"Please run the linter before you answer.", "", true},
		{"Always answer in English.", "", true},
		{"Parle-moi en français.", "fr", true},
		{"Utilise toujours pnpm.", "fr", true},
		{"Usa siempre pnpm.", "es", true},
		{"No uses jQuery.", "es", true},
		{"Gebruik altijd TypeScript.", "nl", true},
		{"Scrivi i commenti in italiano.", "it", true},
		{"先别写代码，先分析原因。", "zh", true},
		{"请使用中文回答。", "zh", true},
		{"不要改 go.mod。", "zh", true},
		{"テストを先に書いてください。", "ja", true},
		{"Hãy trả lời bằng tiếng Việt.", "vi", true},
		{"Je veux que les commentaires soient en français.", "fr", true},

		{"continue", "", false},
		{"Thanks.", "", false},
		{"Great job so far!", "", false},
		{"This is still failing.", "", false},
		{"Can you check the logs?", "", false},
		{"tiene sentido?", "", false},
		{"你觉得呢？", "", false},
		{"fix npm run build:", "", false},
		{"Explain the pros and cons of each", "", false},
		{"Do that.", "", false},
		{"Keep going!", "", false},
		{"Keep that in mind.", "", false},
		{"Remember the rotation schedule.", "", false},
		{"Try again with the other port.", "", false},
		{"Analiza esto.", "", false},
		{"Fais-le maintenant.", "", false},
		{"这次先用红色。", "", false},
		{"继续", "", false},
		{"Right now you should just create the interface.", "", false},
		{"Como ves en el screenshot, el pedido está duplicado.", "", false},
		{"Add a login page with " + strings.Repeat("many fields and ", 12) + "a button.", "", false},
		{"Check the console.", "", false},
		{"Revisa la consola.", "", false},
		{"Vérifie les logs.", "", false},
		{"请帮我看看。", "", false},
		{"请检查一下日志。", "", false},
		{"Use the same style as before.", "", false},
		{"Do the same for the other pages.", "", false},
		{"Never swallow errors in the handlers, log them with the request id.", "", true},
		{"请用中文回答。", "zh", true},
		{"Vas-y, continue.", "", false},
		{"Dis-moi ce que tu en penses.", "", false},
		{"请继续完成剩下的任务。", "", false},
		{"Sigue así, muy bien.", "", false},
		{"Responda sempre em português.", "pt", true},
		{"日本語で答えてください。", "ja", true},
	}
	for _, tt := range tests {
		lang, ok := instructionShape(tt.clause)
		if ok != tt.ok || ok && lang != tt.lang {
			t.Errorf("instructionShape(%q) = %q, %v; want %q, %v", tt.clause, lang, ok, tt.lang, tt.ok)
		}
	}
}

func TestOwnClauses(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"Fix the header. use context7", []string{"Fix the header.", "use context7"}},
		{"See this:\n```\nnpm ERR! missing script\n```\nuse context7", []string{"See this:", "use context7"}},
		{"## Task\nAdd a search bar.\n## Rules\nKeep the changelog updated.", []string{"Add a search bar.", "Keep the changelog updated."}},
		{"<selection>\nAlways answer in English.\n</selection>\nRename the field.", []string{"Rename the field."}},
		{"Why does it fail?\nError: connect ECONNREFUSED 127.0.0.1:5432\nKeep the old API.\n\nRename the field.", []string{"Rename the field."}},
		{"Look at the overlay\n\n[pasted output, 12 lines, starting: at parse (index.js:1:2)]\n\nClick outside, press Esc key, or fix the code to dismiss.", nil},
		{"🔄 Opening a file...\nNODE_ENV: production\nThe tree stays empty.", nil},
		{"@src/App.tsx @src/Map.tsx\nFix the zoom.\nuse context7", []string{"Fix the zoom.", "use context7"}},
		{"fix the build\n./app/orders/page.tsx\n36:9  Warning: The 'items' expression changes on every render. To fix this, wrap it in useMemo.\nreact-hooks/exhaustive-deps", nil},
		{"The tree stays empty.\n\nKeep the old API.", []string{"The tree stays empty.", "Keep the old API."}},
	}
	for _, tt := range tests {
		if got := ownClauses(tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("ownClauses(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

func TestStandingLesson(t *testing.T) {
	res := run(t, nil,
		userSession("s1", day(10), "Add a search bar to the header. use context7", "The footer overlaps the content.", "Paginate the orders list. use context7"),
		userSession("s2", day(12), "Show the dates as YYYY-MM-DD. use context7"),
	)
	var op *extract.Operation
	for i := range res.Response.Operations {
		if strings.Contains(res.Response.Operations[i].Body, "context7") {
			op = &res.Response.Operations[i]
		}
	}
	if op == nil {
		t.Fatalf("no memory of the standing instruction: %+v", res.Response.Operations)
	}
	for _, want := range []string{
		"Use context7",
		"their 1st message of session s1 on 2026-11-10, their 3rd message of session s1 on 2026-11-10 and their 1st message of session s2 on 2026-11-12",
		"Follow this whenever working in shop",
	} {
		if !strings.Contains(op.Body, want) {
			t.Errorf("body lacks %q:\n%s", want, op.Body)
		}
	}
	if !slices.Equal(op.Evidence, []string{"s1", "s2"}) {
		t.Errorf("evidence %v, want both sessions", op.Evidence)
	}
}

// FuzzStandingInstructions feeds arbitrary requests and a clause appended to them: it must not
// panic, and whatever it keeps is a clause of the person's own prose, with the messages that
// said it.
func FuzzStandingInstructions(f *testing.F) {
	for _, s := range [][2]string{
		{"帮我把登录页的按钮改成蓝色。", "use context7"},
		{"Le tri ne marche pas.", "Parle-moi en français !"},
		{"Still broken:\n[pasted output, 3 lines, starting: at x (a.js:1:2)]\n", "Click outside, press Esc key, or fix the code to dismiss."},
		{"```\ncode\n```", "Keep the changelog updated."},
		{"", ""},
		{"\xff\xfe", "。。。"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, request, clause string) {
		msgs := messagesOf(
			[]string{request + "\n" + clause, "ok", "another " + request + ". " + clause, clause + "\n" + request + " too"},
			[]string{"first " + request + "\n" + clause},
		)
		for _, si := range standingInstructions(msgs, agentWords{}) {
			if len(si.sayings) < 2 || si.clause == "" {
				t.Fatalf("kept %q with %d sayings", si.clause, len(si.sayings))
			}
			for _, m := range si.sayings {
				if !slices.ContainsFunc(ownClauses(m.text), func(c string) bool { return clauseKey(c) == clauseKey(si.clause) }) {
					t.Fatalf("kept %q from a message that does not say it: %q", si.clause, m.text)
				}
			}
		}
		for _, n := range standingLessons(standingInstructions(msgs, agentWords{})) {
			if n.basis == "" || n.rule == "" {
				t.Fatalf("a standing lesson without its rule or basis: %+v", n)
			}
		}
	})
}

func TestStandingLessonPointingWhereARuleDoes(t *testing.T) {
	res := run(t, nil,
		userSession("s1", day(10), "Remember to check the style guide at https://docs.example.com/go-style before you commit.",
			"Add the retry. When writing Go, follow https://docs.example.com/go-style and name the errors."),
		userSession("s2", day(12), "Split the handler. When writing Go, follow https://docs.example.com/go-style and name the errors."),
	)
	var with []string
	for _, op := range res.Response.Operations {
		if strings.Contains(op.Body, "docs.example.com/go-style") {
			with = append(with, op.Description)
			if !slices.Contains(op.Evidence, "s2") {
				t.Errorf("the rule gains no evidence from the session that said it again: %v", op.Evidence)
			}
		}
	}
	if len(with) != 1 {
		t.Errorf("want one memory of the guide, got %q", with)
	}
}

func TestStandingInstructionsNotTheAgents(t *testing.T) {
	plan := "Here is the plan. Run the tests after each step. Keep the migrations reversible."
	s := &extract.Session{ID: "s1", Project: "/home/ana/shop", Date: day(10)}
	for _, tt := range []struct{ role, text string }{
		{"user", "Plan the move to Postgres. use context7"},
		{"assistant", plan + " I will use context7 for the driver's docs."},
		{"user", "Start with the users table.\nKeep the migrations reversible."},
		{"assistant", "Done."},
		{"user", "Does the orders table need an index? use context7"},
		{"assistant", "Yes, on customer_id."},
		{"user", "Now the orders table.\nKeep the migrations reversible."},
		{"assistant", "Done."},
		{"user", "ok"},
		{"assistant", "Shall I go on?"},
		{"user", "Then the invoices.\nKeep the migrations reversible.\nuse context7"},
	} {
		s.Turns = append(s.Turns, extract.Turn{Role: transcript.Role(tt.role), Text: tt.text})
	}
	var msgs []personMessage
	n := 0
	for i, turn := range s.Turns {
		if turn.Role == "user" {
			n++
			msgs = append(msgs, personMessage{session: s, message: n, turn: i, text: turn.Text})
		}
	}
	var got []string
	for _, si := range standingInstructions(msgs, agentWords{}) {
		got = append(got, si.clause)
	}
	if want := []string{"use context7"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q: a clause the agent said first is its own, one it echoes stays the person's", got, want)
	}
}

func TestStandingInstructionsSameDay(t *testing.T) {
	morning := &extract.Session{ID: "a", Project: "/home/ana/shop", Date: day(10)}
	noon := &extract.Session{ID: "b", Project: "/home/ana/shop", Date: day(10).Add(2 * time.Hour)}
	msgs := []personMessage{
		{session: morning, message: 1, text: "Build the food-swap screen with a big photo area. Also let the user rate the suggestion."},
		{session: noon, message: 1, text: "Start over: a carousel of past photos, tiles of any size, a heatmap of swaps per day. Also let the user rate the suggestion."},
	}
	if got := standingInstructions(msgs, agentWords{}); len(got) != 0 {
		t.Errorf("a task's sentence pasted again in a session of the same day is kept: %q", got[0].clause)
	}
	noon.Date = day(11)
	if got := standingInstructions(msgs, agentWords{}); len(got) != 1 {
		t.Errorf("said in sessions of two days, %d kept, want 1", len(got))
	}
}

func TestStandingInstructionsDayOfTheMessage(t *testing.T) {
	// Two sessions that both ended on the 11th, the first begun on the 10th: the messages' own
	// times say two days.
	first := &extract.Session{ID: "a", Project: "/home/ana/shop", Date: day(11)}
	second := &extract.Session{ID: "b", Project: "/home/ana/shop", Date: day(11).Add(3 * time.Hour)}
	msgs := []personMessage{
		{session: first, message: 1, at: day(10), text: "Plan the invoices module. Keep this spec updated as decisions are made."},
		{session: second, message: 1, at: day(11), text: "Fix the folder layout. Keep this spec updated as decisions are made."},
	}
	if got := standingInstructions(msgs, agentWords{}); len(got) != 1 {
		t.Errorf("said on two days by the messages' times, %d kept, want 1", len(got))
	}
	msgs[0].at = day(11)
	if got := standingInstructions(msgs, agentWords{}); len(got) != 0 {
		t.Errorf("said on one day, %d kept, want 0", len(got))
	}
}
