package phases

import "testing"

func TestCallDir(t *testing.T) {
	tests := []struct{ dir, cwd, want string }{
		{"", "/home/ana/shop", ""},
		{"frontend", "/home/ana/shop", "/home/ana/shop/frontend"},
		{"../api", "/home/ana/shop/web", "/home/ana/shop/api"},
		{"/home/ana/shop/frontend", "/home/ana/other", "/home/ana/shop/frontend"},
		{"frontend", "", "frontend"},
	}
	for _, tt := range tests {
		if got := callDir(tt.dir, tt.cwd); got != tt.want {
			t.Errorf("callDir(%q, %q) = %q, want %q", tt.dir, tt.cwd, got, tt.want)
		}
	}
}
