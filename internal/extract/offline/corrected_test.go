package offline

import "testing"

// TestNotedAndCorrectedInOtherLanguages: what a correction goes on to say holds, in a clause of
// its own, and a rule flagged with "note:" inside a request, in Chinese, Vietnamese, Dutch and
// German; beside the near misses, which must stay out: a correction that only says what is
// wrong, a description after always, a note about the day's bug, a note for now.
func TestNotedAndCorrectedInOtherLanguages(t *testing.T) {
	tests := []struct {
		text string
		keep bool
	}{
		{"不对，我们不用 Redux，状态管理统一用 Zustand。", true},
		{"Nee, we gebruiken geen Redux, voor state management gebruiken we altijd Zustand.", true},
		{"Nein, wir nehmen kein Redux, für den State nehmen wir immer Zustand.", true},
		{"Không, mình không dùng Redux, quản lý state luôn dùng Zustand.", true},
		{"帮我加一个登录页面。注意：我们用的是 Tailwind，不要写单独的 CSS 文件。", true},
		{"Thêm trang đăng nhập giúp mình. Lưu ý là dự án dùng Tailwind, đừng viết file CSS riêng.", true},
		{"Voeg een loginpagina toe. Let op: we gebruiken Tailwind, schrijf geen aparte CSS-bestanden.", true},
		{"Beachte: wir deployen nur über make deploy.", true},

		{"不对，这个结果还是错的。", false},
		{"Nee, de test faalt nog steeds, hij faalt altijd op CI.", false},
		{"Nein, das ist falsch, der Build schlägt immer fehl.", false},
		{"Không, test vẫn lỗi, luôn bị lỗi trên CI.", false},
		{"注意：这个 bug 很奇怪，你看看日志。", false},
		{"Let op: de test faalt, kijk even naar de logs?", false},
		{"Lưu ý là tạm thời đừng sửa file này.", false},
		{"注意：先不要提交。", false},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			ops := run(t, nil, userSession("s", day(16), tt.text)).Response.Operations
			if kept := len(ops) > 0; kept != tt.keep {
				t.Errorf("kept = %v (%+v), want %v", kept, briefs(ops), tt.keep)
			}
		})
	}
}
