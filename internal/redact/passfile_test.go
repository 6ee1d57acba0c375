package redact

import (
	"strings"
	"testing"
)

// TestPasswordFiles (issue 30): the password of a .pgpass line and the hash of an htpasswd or
// shadow line are redacted; lines of the same shape that hold no password are not.
func TestPasswordFiles(t *testing.T) {
	pw := "Tr0ub4" + "dor&3x"
	bcrypt := "$2y$05$" + "c4WoMPo3SXsafkva.HHa6u" + "Ad1xT8jKOa0NqkhOaQ5Hn7k2fnTb9rG"
	apr1 := "$apr1$" + "r31.....$" + "HqJZimcKQFAMYayBlzkrA/"
	sha := "{SHA}" + "W6ph5Mm5Pz8GgiULbPgzG37mj9g="
	tests := []struct{ name, in, want string }{
		{"pgpass", "my ~/.pgpass is\ndb.example.com:5432:shop:app:" + pw + "\nok",
			"my ~/.pgpass is\ndb.example.com:5432:shop:app:[REDACTED:pgpass-password]\nok"},
		{"pgpass, any port", "  *:*:*:postgres:" + pw, "  *:*:*:postgres:[REDACTED:pgpass-password]"},
		{"pgpass, escaped colon", "localhost:5432:db:u:ab\\:" + pw, "localhost:5432:db:u:[REDACTED:pgpass-password]"},
		{"htpasswd bcrypt", "ana:" + bcrypt, "ana:[REDACTED:password-hash]"},
		{"htpasswd apr1", "cat .htpasswd\nbob:" + apr1 + "\n", "cat .htpasswd\nbob:[REDACTED:password-hash]\n"},
		{"htpasswd sha", "carol:" + sha, "carol:[REDACTED:password-hash]"},
	}
	r := newRedactor(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, _ := r.Redact(tt.in); got != tt.want {
				t.Errorf("Redact(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
	for _, in := range []string{
		"main.go:12:5: undefined: x",
		"2026:11:26:20:48",
		"user:1000:session:abc:body",
		"localhost:5432:db:user:<password>",
		"a:b:c:d:e",
	} {
		if fs := r.Find(in); len(fs) != 0 {
			t.Errorf("Find(%q) = %v, want nothing", in, fs)
		}
	}
	if strings.Contains(tests[0].want, pw) {
		t.Fatal("bad test")
	}
}

func FuzzPgpass(f *testing.F) {
	f.Add("h:5432:d:u:p\\:w")
	f.Add("::::")
	f.Fuzz(func(t *testing.T, s string) {
		for _, sp := range findPgpass(s) {
			if sp[0] < 0 || sp[1] > len(s) || sp[0] > sp[1] {
				t.Fatalf("span %v out of %q", sp, s)
			}
		}
	})
}
