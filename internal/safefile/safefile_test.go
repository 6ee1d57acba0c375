package safefile

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small")
	os.WriteFile(small, []byte("1234"), 0o600)
	link := filepath.Join(dir, "link")
	os.Symlink(small, link)

	tests := []struct {
		name    string
		path    string
		max     int64
		want    string
		wantErr string
	}{
		{"fits", small, 4, "1234", ""},
		{"a symlink to a regular file", link, 4, "1234", ""},
		{"too large", small, 3, "", "larger than 3 bytes"},
		{"a directory", dir, 10, "", "not a regular file (a directory)"},
		{"missing", filepath.Join(dir, "none"), 10, "", "no such file"},
	}
	if runtime.GOOS != "windows" {
		tests = append(tests, struct {
			name    string
			path    string
			max     int64
			want    string
			wantErr string
		}{"/dev/zero", "/dev/zero", 1 << 20, "", "not a regular file (a character device)"})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadFile(tt.path, tt.max)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("ReadFile = %q, %v; want an error with %q", got, err, tt.wantErr)
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Fatalf("ReadFile = %q, %v", got, err)
			}
		})
	}
}

func TestReadFileContextStops(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	os.WriteFile(path, []byte("data"), 0o600)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ReadFileContext(ctx, path, 100); !errors.Is(err, context.Canceled) {
		t.Fatalf("ReadFileContext after cancel = %v", err)
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{100: "100 bytes", 4 << 10: "4 KiB", 64 << 20: "64 MiB", 1 << 30: "1 GiB", 1500: "1500 bytes"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}
