package store

import "testing"

func TestChangeKind(t *testing.T) {
	for _, tt := range []struct {
		c    Change
		want ChangeKind
	}{
		{Change{Name: "a.md", New: []byte("x")}, FileCreated},
		{Change{Name: "a.md", Old: []byte{}, New: []byte("x")}, FileUpdated}, // an empty file is a file
		{Change{Name: "a.md", Old: []byte("x")}, FileDeleted},
	} {
		if got := tt.c.Kind(); got != tt.want {
			t.Errorf("%+v: %s, want %s", tt.c, got, tt.want)
		}
	}
}
