package offline

import (
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/memory"
)

// TestReplyLanguage keeps the language the person asks to be answered in, in the languages real
// sessions use, and nothing of a translation, a code comment's language or a page's text.
func TestReplyLanguage(t *testing.T) {
	tests := []struct {
		text string
		want string // the memory's description, "" for none
	}{
		{"Fale comigo em Português do Brasil", `Answer the person in Brazilian Portuguese (they asked: "Fale comigo em Português do Brasil")`},
		{"接下來除了專有名詞以外, 請用正體中文回答我; 謝謝!", `Answer the person in Traditional Chinese (they asked: "請用正體中文回答我")`},
		{"中文对话", `Answer the person in Chinese (they asked: "中文对话")`},
		{"打印结果见复制内容，请使用中文回答。use context7", `Answer the person in Chinese (they asked: "请使用中文回答")`},
		{"Je souhaite dorénavant que tu me parles en français", `Answer the person in French (they asked: "Je souhaite dorénavant que tu me parles en français")`},
		{"Respóndeme siempre en español, por favor", `Answer the person in Spanish (they asked: "Respóndeme siempre en español")`},
		{"Antworte mir bitte auf Deutsch", `Answer the person in German (they asked: "Antworte mir bitte auf Deutsch")`},
		{"tra loi bang tieng viet nhe", `Answer the person in Vietnamese (they asked: "tra loi bang tieng viet nhe")`},
		{"Antwoord altijd in het Nederlands", `Answer the person in Dutch (they asked: "Antwoord altijd in het Nederlands")`},
		{"これからは日本語で答えてください", `Answer the person in Japanese (they asked: "これからは日本語で答えてください")`},
		{"以后你给出的回复必须是中文", `Answer the person in Chinese (they asked: "以后你给出的回复必须是中文")`},
		{"keep our chat in english", `Answer the person in English (they asked: "keep our chat in english")`},
		{"Отвечай мне на русском", `Answer the person in Russian (they asked: "Отвечай мне на русском")`},
		{"исправь требования так, чтобы ты всегда работал со мной на русском", `Answer the person in Russian (they asked: "чтобы ты всегда работал со мной на русском")`},
		{"항상 한국어로 답변해줘", `Answer the person in Korean (they asked: "항상 한국어로 답변해줘")`},
		{"한글로 답변해줘.", `Answer the person in Korean (they asked: "한글로 답변해줘")`},
		{"I talk to you in Japanese, so from now please also response me in Japanese.", `Answer the person in Japanese (they asked: "from now please also response me in Japanese")`},
		{"Translate the chat in English", ""},
		{"Please reply in English from now on", `Answer the person in English (they asked: "Please reply in English from now on")`},
		{"Siempre responde en español y usa pnpm", "Answer the person in Spanish (they asked: \"Siempre responde en español y usa pnpm\")\nSiempre responde en español y usa pnpm"},
		// the language of the work
		{"/speckit.specify 在codex和speckit的工作过程中全称需要使用中文：接下去是我对这个平台的一些交互功能的描述", "Write the project's documents in Chinese"}, // what was asked is too long to describe it
		{"以后所有的文档都用中文写", `Write the project's documents in Chinese (the person asked: "以后所有的文档都用中文写")`},
		{"Write all the docs in Spanish.", `Write the project's documents in Spanish (the person asked: "Write all the docs in Spanish")`},
		{"Tất cả tài liệu đều viết bằng tiếng Việt", `Write the project's documents in Vietnamese (the person asked: "Tất cả tài liệu đều viết bằng tiếng Việt")`},
		{"schreibe alles auf deutsch", `Write the project's documents in German (the person asked: "schreibe alles auf deutsch")`},
		{"Write everything in English.", `Write the project's documents in English (the person asked: "Write everything in English")`},
		{"escribe todo en español", `Write the project's documents in Spanish (the person asked: "escribe todo en español")`},
		{"全部用中文写", `Write the project's documents in Chinese (the person asked: "全部用中文写")`},
		{"把 README 改成中文", ""},
		// not the language of the answers
		{"Translate the README into French", ""},
		{"Write the code comments in English", ""},
		{"把这段文字翻译成英文", ""},
		{"页面上的文字都改成中文", ""},
		{"客户的回复用中文写一份", ""},
		{"Les messages d'erreur doivent être en français", ""},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			got := strings.Join(said(t, tt.text), "\n")
			if got != tt.want {
				t.Errorf("memories %q, want %q", got, tt.want)
			}
		})
	}
}

// TestReplyLanguageIsThePersons files the request under the person, for every project, and
// keeps one memory however many sessions ask again.
func TestReplyLanguageIsThePersons(t *testing.T) {
	a := userSession("s1", day(18), "Fale comigo em Português do Brasil")
	b := userSession("s2", day(19), "Fale comigo em Português do Brasil, devemos conectar nosso projeto ao GitHub")
	ops := run(t, nil, a, b).Response.Operations
	if len(ops) != 1 || ops[0].Type != memory.User || strings.Join(ops[0].Evidence, ",") != "s1,s2" {
		t.Fatalf("operations = %+v, want one user memory with evidence s1,s2", briefs(ops))
	}
}

func TestAddressedAs(t *testing.T) {
	tests := []struct {
		text string
		want string // the memory's description, "" for none
	}{
		{"Меня зовут Лиза. Обращайся ко мне Лиза.", `Call the person Лиза (they asked: "Обращайся ко мне Лиза").`},
		{"Please call me Sam from now on", `Call the person Sam (they asked: "Please call me Sam from now on").`},
		{"Llámame Ana, por favor", `Call the person Ana (they asked: "Llámame Ana").`},
		{"Me llamo Juan y quiero reservar una mesa", ""},
		{"Can you call me back later?", ""},
		{"call me maybe", ""},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			var got []string
			for _, op := range run(t, nil, userSession("s", day(18), tt.text)).Response.Operations {
				got = append(got, op.Description)
			}
			want := []string{}
			if tt.want != "" {
				want = []string{tt.want}
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("memories = %q, want %q", got, want)
			}
		})
	}
}
