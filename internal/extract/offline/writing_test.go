package offline

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/memory"
)

// TestMessageLanguage tells a message's language by its script or its function words, and
// nothing of a message that says too little.
func TestMessageLanguage(t *testing.T) {
	tests := []struct{ text, want string }{
		{"帮我修复登录的bug，然后跑一下 npm test", "zh"},
		{"ログインのバグを直してください", "ja"},
		{"로그인 버그를 고쳐줘", "ko"},
		{"исправь баг с логином, пожалуйста", "ru"},
		{"виправ помилку з логіном, будь ласка", "uk"},
		{"arregla el bug del login, no funciona cuando el usuario pone mal la contraseña", "es"},
		{"corrige o teste do componente e roda o npm test de novo", "pt"},
		{"peux-tu corriger la fonction qui parse les dates ?", "fr"},
		{"Lance les tests maintenant", "fr"},
		{"Salut, j'aimerais que tu analyses le projet", "fr"}, // by its elisions
		{"Ajoute un test pour l'endpoint de login", "fr"},
		{"kannst du bitte die Tests im Ordner tests ausführen und den Fehler beheben", "de"},
		{"kan je de tests draaien en de fout in main.go fixen", "nl"},
		{"puoi sistemare il bug del login? non funziona con la password sbagliata", "it"},
		{"tolong perbaiki bug login ini, tidak jalan kalau password salah", "id"},
		{"sửa lỗi đăng nhập giúp mình", "vi"},
		{"sua loi dang nhap giup minh, khong chay duoc khi nhap sai mat khau", "vi"},
		{"giriş hatasını düzelt, şifre yanlış olunca çalışmıyor ve bu çok kötü", "tr"},
		{"pojďme podle zadání v instructions md modifikovat naši šablonu, dělejme to krok po kroku", "cs"},
		{"napraw błąd logowania, proszę, nie działa gdy hasło jest złe", "pl"},
		{"fix the login bug please, it fails when the password is wrong", "en"},
		{"привет", "ru"},
		{"Да", ""}, // too few letters to tell a script
		{"Quiero que tengas acceso a esa carpeta o a otras que te pida", "es"},
		{"ok", ""},
		{"npm run build", ""},
		{"```\nTraceback (most recent call last):\n  File \"app.py\"\n```", ""},
		{"haz un push", ""}, // too few words to tell
	}
	for _, tt := range tests {
		if got := messageLanguage(tt.text); got != tt.want {
			t.Errorf("messageLanguage(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// replied is a session whose person says texts and whose agent answers each with reply.
func replied(id, reply string, texts ...string) extract.Session {
	s := userSession(id, day(18), texts...)
	for i := range s.Turns {
		if s.Turns[i].Role == "assistant" {
			s.Turns[i].Text = reply
		}
	}
	return s
}

// TestWrittenLanguage remembers the language most of the person's messages are in, with the
// answers' language when the agent answered in it, and nothing when it is English, mixed, told by
// too few messages, or asked for in so many words.
func TestWrittenLanguage(t *testing.T) {
	zh := []string{"帮我看一下登录页面为什么报错", "把按钮的颜色改成蓝色", "好的，现在运行测试看看"}
	tests := []struct {
		name     string
		sessions []extract.Session
		want     string // the memory's description, "" for none
	}{
		{"answered in it", []extract.Session{replied("s1", "好的，我已经修改了按钮的颜色。", zh...)},
			"In this project the person writes to the agent in Chinese; answer them in Chinese."},
		{"answered in English", []extract.Session{replied("s1", "Done: I changed the button's colour and ran the tests.", zh...)},
			"In this project the person writes to the agent in Chinese."},
		{"across sessions", []extract.Session{replied("s1", "Listo.", "arregla el login, no funciona cuando el usuario pone mal la contraseña"),
			replied("s2", "Listo, ya está.", "ahora haz que el botón de guardar esté a la derecha", "y que el formulario tenga un título")},
			"In this project the person writes to the agent in Spanish."},
		{"in traditional characters", []extract.Session{replied("s1", "好的，我已經修改了按鈕的顏色。",
			"幫我看一下登入頁面為什麼報錯", "把按鈕的顏色改成藍色", "好的，現在執行測試看看")},
			"In this project the person writes to the agent in Traditional Chinese; answer them in Traditional Chinese."},
		{"two messages", []extract.Session{replied("s1", "好的。", zh[:2]...)},
			"In this project the person writes to the agent in Chinese; answer them in Chinese."},
		{"one message", []extract.Session{replied("s1", "好的。", zh[0], "ok", "npm test")}, ""},
		{"English", []extract.Session{replied("s1", "Done.", "fix the login page please", "now make the button blue", "and run the tests again")}, ""},
		{"mixed", []extract.Session{replied("s1", "Done.", append(slicesOf(zh), "fix the login page please", "now make the button blue", "and run the tests again")...)}, ""},
		{"English pasted between the requests", []extract.Session{replied("s1", "Done.", append(slicesOf(zh),
			"bad request. this host is not allowed, add it to server.allowedHosts in vite.config.js", "disallowedHost at /auth/login you may need to add it to allowed_hosts")...)},
			"In this project the person writes to the agent in Chinese."},
		{"asked for another", []extract.Session{replied("s1", "OK.", append(slicesOf(zh), "please answer in English")...)}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, op := range run(t, nil, tt.sessions...).Response.Operations {
				if strings.Contains(op.Description, "writes to the agent") {
					got = append(got, op.Description)
				}
			}
			if strings.Join(got, "\n") != tt.want {
				t.Errorf("memories %q, want %q", got, tt.want)
			}
		})
	}
}

func slicesOf(s []string) []string { return append([]string(nil), s...) }

// notWritten are the operations but the language the person writes in (writtenLanguageLesson):
// for tests of what they said, whose two messages in one language make that memory too.
func notWritten(ops []extract.Operation) []extract.Operation {
	return slices.DeleteFunc(ops, func(op extract.Operation) bool { return strings.Contains(op.Description, "writes to the agent in") })
}

// TestWrittenLanguageStaysInTheProject keeps the language in the project's store: a person may
// write one project in their language and another, an open one, in English.
func TestWrittenLanguageStaysInTheProject(t *testing.T) {
	req := extract.Request{Today: day(20), Scopes: []memory.Scope{memory.ScopeProject, memory.ScopeUser},
		Sessions: []extract.Session{replied("s1", "好的。", "帮我看一下登录页面为什么报错", "把按钮的颜色改成蓝色", "好的，现在运行测试看看")}}
	res, err := New().Consolidate(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	ops := res.Response.Operations
	if len(ops) != 1 || ops[0].Type != memory.User || ops[0].Scope != memory.ScopeProject || ops[0].Name != "person-writes-chinese" {
		t.Fatalf("operations = %+v, want the project's user memory person-writes-chinese", ops)
	}
	if want := "the language of 3 of the 3 messages of theirs whose language shows, in session s1 on 2026-11-18"; !strings.Contains(ops[0].Body, want) {
		t.Errorf("body %q does not say %q", ops[0].Body, want)
	}
}

// TestWrittenLanguageSaysWhere names the first and the last message in the language, and every
// session as evidence, oldest first.
func TestWrittenLanguageSaysWhere(t *testing.T) {
	a := replied("s1", "Listo.", "arregla el login, no funciona cuando el usuario pone mal la contraseña")
	b := replied("s2", "Listo, ya está.", "ahora haz que el botón de guardar esté a la derecha", "y que el formulario tenga un título")
	b.Date = day(19)
	ops := run(t, nil, b, a).Response.Operations
	if len(ops) != 1 || strings.Join(ops[0].Evidence, ",") != "s1,s2" {
		t.Fatalf("operations = %+v, want one memory with evidence s1,s2", briefs(ops))
	}
	want := "in 2 sessions, from their 1st message of session s1 on 2026-11-18 to their 2nd message of session s2 on 2026-11-19"
	if !strings.Contains(ops[0].Body, want) {
		t.Errorf("body %q does not say %q", ops[0].Body, want)
	}
}
