package redact

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The fake credentials below are split with + so that secret scanners do not flag this file.
var (
	awsKeyID     = "AKIA" + "IOSFODNN7EXAMPLE"
	awsSecret    = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"
	githubPAT    = "ghp_" + "1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ"
	githubFine   = "github_pat_" + "11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOP"
	gitlabPAT    = "glpat-" + "xR4nd0mT0k3nV4lu3xyz"
	slackBot     = "xoxb-" + "2048-1024-AbCdEfGhIjKlMnOpQrStUv"
	slackHook    = "T00000000/B00000000/" + "XXXXXXXXXXXXXXXXXXXXXXXX"
	openaiKey    = "sk-" + "proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"
	openaiLegacy = "sk-" + "Zq9XfT3BlbkFJa8Kd7LmNpQrStUvWxYz0123456789ab"
	anthropicKey = "sk-ant-" + "api03-Xy7Zq9LmNoPqRsTuVwXyZ012345abcdeFGHIJ"
	googleKey    = "AIza" + "SyD-3xAmPlE_kEy0123456789abcdefghij"
	stripeKey    = "sk_live_" + "51HxYzAbCdEfGhIjKlMnOpQr"
	jwt          = "eyJhbGciOiJIUzI1NiJ9" + ".eyJzdWIiOiIxMjM0NTY3ODkwIn0" + ".dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
	bearer       = "Zm9vYmFyQmF6UXV4" + "MTIzNDU2Nzg5MGFi"
	pemBlock     = "-----BEGIN RSA " + "PRIVATE KEY-----\nMIIEowIBAAKCAQEAx5d\nq1Zk9o2Vb==\n-----END RSA PRIVATE KEY-----"
	amzSig       = "4f0e1a2b3c4d5e6f" + "708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f7"
	googSig      = "1b2c3d4e5f60718293a4b5c6" + "d7e8f9011223344556677889900aabbccddeeff"
	azureSig     = "Zx9%2Bq7Lm3Np" + "Qr5St8Uv1Wx4Yz6%3D"
	npmToken     = "npm_" + "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2"
	azureKey     = "Xq7Lm3Np9Qr5St8Uv1Wx4Yz6Ab2Cd0Ef" + "Gh1Ij2Kl3Mn4Op5Qr6St7Uv8Wx9Yz0Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2Yz3A=="
	discordHook  = "1234567890123" + "45678/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-AbCdEfGhIjKlMnOpQrStUvWx"
	telegramBot  = "123456789:AA" + "HdqTcvCH1vGWJxfSeofSAs0K5PALDsawx"
)

func newRedactor(t testing.TB) *Redactor {
	t.Helper()
	r, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRedact(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"aws key id", "export AWS_ACCESS_KEY_ID=" + awsKeyID + " now",
			"export AWS_ACCESS_KEY_ID=[REDACTED:aws-access-key] now"},
		{"aws secret assignment", "aws_secret_access_key = " + awsSecret,
			"aws_secret_access_key = [REDACTED:aws-secret-key]"},
		{"aws secret near keyword", "the AWS secret is " + awsSecret + ", rotate it",
			"the AWS secret is [REDACTED:aws-secret-key], rotate it"},
		{"github classic", "use token " + githubPAT + " for the API",
			"use token [REDACTED:github-token] for the API"},
		{"github fine-grained", "GH=" + githubFine, "GH=[REDACTED:github-token]"},
		{"gitlab", "glab auth login --token " + gitlabPAT, "glab auth login --token [REDACTED:gitlab-token]"},
		{"slack token", "SLACK_BOT=" + slackBot + " posts", "SLACK_BOT=[REDACTED:slack-token] posts"},
		{"slack webhook", "curl https://hooks.slack.com/services/" + slackHook + " -d x",
			"curl https://hooks.slack.com/services/[REDACTED:slack-webhook] -d x"},
		{"openai project", "OPENAI_API_KEY=" + openaiKey, "OPENAI_API_KEY=[REDACTED:openai-key]"},
		{"openai legacy", "client(" + openaiLegacy + ")", "client([REDACTED:openai-key])"},
		{"anthropic", "key " + anthropicKey + " works", "key [REDACTED:anthropic-key] works"},
		{"google", "maps key " + googleKey + ".", "maps key [REDACTED:google-api-key]."},
		{"stripe", "charge with " + stripeKey, "charge with [REDACTED:stripe-key]"},
		{"jwt", "cookie session=" + jwt + "; Path=/", "cookie session=[REDACTED:jwt]; Path=/"},
		{"pem block", "key:\n" + pemBlock + "\ndone", "key:\n[REDACTED:private-key]\ndone"},
		{"pem cut off", "-----BEGIN OPENSSH " + "PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\nAAAABG5vbmU=", "[REDACTED:private-key]"},
		{"pem json escaped", `"-----BEGIN ` + `PRIVATE KEY-----\nMIIEvQIBADANBg\n-----END PRIVATE KEY-----"`,
			`"[REDACTED:private-key]"`},
		{"url password", "DATABASE_URL=postgres://app:s3cr3t-P4ss@db.internal:5432/shop",
			"DATABASE_URL=postgres://app:[REDACTED:url-password]@db.internal:5432/shop"},
		{"url password with at", "https://bob:p@ss@example.com/x", "https://bob:[REDACTED:url-password]@example.com/x"},
		{"password assignment", "password=hunter2 then", "password=[REDACTED:password] then"},
		{"passwd yaml", "  passwd: correct-horse", "  passwd: [REDACTED:password]"},
		{"passwd then a quoted value", "the passwd 'Xk9-tr4p-Lm2q' works", "the passwd '[REDACTED:password]' works"},
		{"camelCase right after 明文密码", "明文密码 `hunterTwoX`", "明文密码 `[REDACTED:password]`"},
		{"snake_case after 密码是", "密码是 `hunter_two`", "密码是 `[REDACTED:password]`"},
		{"diceware passphrase", "PASSWORD=correct-horse-battery-staple", "PASSWORD=[REDACTED:password]"},
		{"a password ending in !", "password: Summer2024!", "password: [REDACTED:password]"},
		{"a key named like a variable, with digits", "api_key=prod_key_7f3a9c1e", "api_key=[REDACTED:api-key]"},
		{"prefixed env", "DB_PASSWORD=Tr0ub4dor&3", "DB_PASSWORD=[REDACTED:password]"},
		{"json password", `{"password": "hunter2", "user": "ana"}`, `{"password": "[REDACTED:password]", "user": "ana"}`},
		{"escaped json", `{\"api_key\": \"abc123def\"}`, `{\"api_key\": \"[REDACTED:api-key]\"}`},
		{"secret assignment", "secret: s3kr1t-value", "secret: [REDACTED:secret]"},
		{"token assignment", "token=abcd1234efgh", "token=[REDACTED:token]"},
		{"apikey", "apikey: 0123456789abcdef", "apikey: [REDACTED:api-key]"},
		{"changeme is still redacted", "password=changeme", "password=[REDACTED:password]"},
		{"bearer", "Authorization: Bearer " + bearer, "Authorization: Bearer [REDACTED:bearer-token]"},
		{"bearer with known token keeps specific kind", "Authorization: Bearer " + githubPAT,
			"Authorization: Bearer [REDACTED:github-token]"},
		{"basic auth", "curl -H 'Authorization: Basic dXNlcjpodW50ZXIy' https://x", "curl -H 'Authorization: Basic [REDACTED:basic-auth]' https://x"},
		{"two secrets", awsKeyID + " and " + githubPAT, "[REDACTED:aws-access-key] and [REDACTED:github-token]"},
		{"s3 presigned url", "https://b.s3.amazonaws.com/r.zip?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=" + awsKeyID + "%2F20261120%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20261120T100000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature=" + amzSig,
			"https://b.s3.amazonaws.com/r.zip?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=[REDACTED:aws-access-key]&X-Amz-Date=20261120T100000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature=[REDACTED:signed-url]"},
		{"gcs signed url", "curl 'https://storage.googleapis.com/b/o?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=sa%40p.iam.gserviceaccount.com%2F20261120%2Fauto%2Fstorage%2Fgoog4_request&X-Goog-Signature=" + googSig + "'",
			"curl 'https://storage.googleapis.com/b/o?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=[REDACTED:signed-url]&X-Goog-Signature=[REDACTED:signed-url]'"},
		{"azure sas", "https://acct.blob.core.windows.net/c/f.txt?sv=2022-11-02&se=2026-12-01&sr=b&sp=r&sig=" + azureSig,
			"https://acct.blob.core.windows.net/c/f.txt?sv=2022-11-02&se=2026-12-01&sr=b&sp=r&sig=[REDACTED:signed-url]"},
		{"azure connection string", "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=" + azureKey + ";EndpointSuffix=core.windows.net",
			"DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=[REDACTED:azure-key];EndpointSuffix=core.windows.net"},
		{"npm token", "//registry.npmjs.org/:_authToken=" + npmToken, "//registry.npmjs.org/:_authToken=[REDACTED:npm-token]"},
		{"mysql -p", "mysql -uroot -pS3cretPw db < dump.sql", "mysql -uroot -p[REDACTED:password] db < dump.sql"},
		{"gh secret set --body", "gh secret set DEPLOY_KEY --body hQ7v2LmX9pR4 -R acme/shop", "gh secret set DEPLOY_KEY --body [REDACTED:secret] -R acme/shop"},
		{"gh secret set -b quoted", "gh secret set DEPLOY_KEY -b 'hQ7v2LmX9pR4'", "gh secret set DEPLOY_KEY -b '[REDACTED:secret]'"},
		{"discord webhook", "post to https://discord.com/api/webhooks/" + discordHook, "post to https://discord.com/api/webhooks/123456789012345678/[REDACTED:discord-webhook]"},
		{"telegram bot", "BOT=" + telegramBot, "BOT=[REDACTED:telegram-bot-token]"},
		// A key pasted with a space in it: the tail must not stay readable, and a key whose halves
		// are each too short to match is still found.
		{"key split by a space", "OPENAI_API_KEY=" + openaiKey[:20] + " " + openaiKey[20:] + " then",
			"OPENAI_API_KEY=[REDACTED:openai-key] then"},
		{"halves too short alone", "token " + githubPAT[:20] + " " + githubPAT[20:] + ".",
			"token [REDACTED:github-token]."},
		{"key in groups of four", "AKIA" + " 2E0A 8F3B 244C 9986" + " is the id",
			"[REDACTED:aws-access-key] is the id"},
		{"prose after a key stays", "use " + githubPAT + " JavaScript 2 days", "use [REDACTED:github-token] JavaScript 2 days"},
	}
	r := newRedactor(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, fs := r.Redact(tt.in)
			if got != tt.want {
				t.Errorf("Redact(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
			if len(fs) == 0 {
				t.Errorf("no findings")
			}
			if again := r.Find(got); len(again) != 0 {
				t.Errorf("output still has findings: %v", again)
			}
		})
	}
}

func TestNoFalsePositives(t *testing.T) {
	tests := []struct{ name, in string }{
		{"getent passwd names a user", "getent passwd 'devcontainers'"},
		{"sudo passwd names a user", "sudo passwd 'alice'"},
		{"a function named near 密码", "这个密码相关的函数是 `listAISuitesInRegistry`，在注册表里"},
		{"a variable named near 密码", "密码 的处理见 `list_ai_suites`"},
		{"an image pinned by digest", `key: "nginx@sha256:` + strings.Repeat("0123456789abcdef", 4) + `"`},
		{"an image with a registry and a tag pinned by digest", `key: "ghcr.io/org/app:1.2@sha256:` + strings.Repeat("0123456789abcdef", 4) + `"`},
		{"a name@digest placeholder", `key: "name@digest"`},
		{"prose", "We decided to use Postgres for billing; always run make lint before committing."},
		{"git sha", "fixed in commit 3f9c2a1b4d5e6f708192a3b4c5d6e7f8091a2b3c, the secret sauce was caching"},
		{"git sha near aws", "aws deploy at 3f9c2a1b4d5e6f708192a3b4c5d6e7f8091a2b3c"},
		{"uuid", "session 2ff46cd5-f4e7-4724-bb20-579dae7956ea finished"},
		{"code decl", "token := strings.Fields(line)"},
		{"comparison", "if password == \"\" {"},
		{"placeholder angle", "password=<your-password>"},
		{"placeholder angle words", "password: <your password here>"},
		{"placeholder env", "token=${GITHUB_TOKEN} and api_key=$OPENAI_API_KEY"},
		{"placeholder template", "secret: {{ .Values.secret }}"},
		{"placeholder mask", "password: ******** and token=xxx"},
		{"url without password", "see https://user@example.com/path and https://example.com:8443/x"},
		{"url env password", "postgres://app:${DB_PASSWORD}@db:5432/shop"},
		{"bearer prose", "Bearer authentication-tokens-are-sent-in-headers"},
		{"slug with sk", "the branch is sk-refactor-the-billing-module-now"},
		{"max tokens", "max_tokens: 4096, token_type: bearer"},
		{"tests pass", "all tests pass: 42 of 42"},
		{"basic prose", "basic auth is configured in the Authorization header"},
		{"getenv reference", `api_key=os.getenv("OPENAI_API_KEY")`},
		{"environ reference", `password = os.environ["DB_PASSWORD"]`},
		{"process.env reference", "const token = process.env.GITHUB_TOKEN;"},
		{"settings reference", "SECRET_KEY = settings.SECRET_KEY"},
		{"config index", `api_key = config["openai"]["api_key"]`},
		{"vault call", `secret = vault.read("secret/data/app")`},
		{"placeholder your", `OPENAI_API_KEY="your_api_key_here"`},
		{"placeholder YOUR", "api_key: YOUR_API_KEY"},
		{"elided key", "export OPENAI_API_KEY=sk-...abcd"},
		{"signature word", "the signature=valid check runs in CI"},
		{"already redacted", "password=[REDACTED:password] " + Mark("github-token")},
		{"words after a prefix", "sk-learn 2024 release and ghp_ prefix 42 times"},
		{"split version", "the sk-proj prefix v2 and AKIA 1234 docs"},
		// Found in real public transcripts (see internal/transcript/testdata/real/SOURCES.md).
		{"non-null assertion on a reference", "const token = process.env.MP_ACCESS_TOKEN!;"},
		{"a variable naming a key", `posthog = Posthog(project_api_key=posthog_project_api_key, host="https://us.i.posthog.com")`},
		{"a hint in French", "API_KEY=votre-clé-va-ici"},
		// Issue 30's rules, on what looks like them and is not.
		{"password as a word", "the password field must be at least 12 characters; reset password emails go out hourly"},
		{"password in other languages, no value", "la contraseña es incorrecta, das Passwort ist falsch, 密码错误"},
		{"a key of a map", "the key `name` holds the user's display name, token `{` opens a block"},
		{"keyboard and passwords", "the keyboard shortcut `Ctrl+K` and the passwords table `users_pw`"},
		{"commit hashes", "commits 3f9c2a1b4d5e6f708192a3b4c5d6e7f8091a2b3c and 9fceb02d0ae598e95dc970b74767f19372d61af8"},
		{"uuid list", "ids: 2ff46cd5-f4e7-4724-bb20-579dae7956ea, 8c1b7a4e-93d2-4f6a-b1e0-5d7c2a9e3f10"},
		{"env names without secrets", "PORT=3000\nRAILS_ENV=production\nKEY_FILE=/etc/ssl/key.pem\nTOKEN_TTL=3600\nAUTH_PROVIDER=google"},
		{"struct literal", "cfg := Config{Key: key, Token: tok, ClientSecret: clientSecret, AuthToken: c.AuthToken}"},
		{"concatenated prose", `msg := "the deploy " + "failed again"`},
		{"base64 of prose", "echo aGVsbG8gd29ybGQgZnJvbSBkcmVhbWQ= is hello world"},
		{"a url with a port", "http://localhost:8080/path and redis://cache:6379/0"},
		{"kubernetes config map", "kind: ConfigMap\ndata:\n  LOG_LEVEL: debug\n  MODE: fast"},
		{"docker run user", "docker run -u 1000:1000 image"},
		{"constant names", "set SECRET_KEY_BASE and JWT_SECRET in the environment"},
	}
	r := newRedactor(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if fs := r.Find(tt.in); len(fs) != 0 {
				got, _ := r.Redact(tt.in)
				t.Errorf("Find(%q) = %v; redacted: %q", tt.in, fs, got)
			}
		})
	}
}

// TestFixturesUntouched runs the redactor over third-party transcripts, full of UUIDs, hashes,
// paths and code, that hold no secret: nothing may be redacted.
func TestFixturesUntouched(t *testing.T) {
	noFindings(t, filepath.Join("..", "..", "testdata", "thirdparty"))
}

// TestRealTranscriptsUntouched: the real public transcripts kept as fixtures (aider's, Claude
// Code's, Codex's; see their SOURCES.md) hold code, paths, hashes and prose, and no secret.
func TestRealTranscriptsUntouched(t *testing.T) {
	noFindings(t, filepath.Join("..", "transcript", "testdata", "real"))
}

// noFindings fails for every finding in the files under root.
func noFindings(t *testing.T, root string) {
	t.Helper()
	r := newRedactor(t)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, f := range r.Find(string(data)) {
			t.Errorf("%s: %s at %d: %q", path, f.Kind, f.Start, data[f.Start:f.End])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestFindPositions(t *testing.T) {
	r := newRedactor(t)
	s := "id " + awsKeyID + " pw https://u:pw123456@h"
	fs := r.Find(s)
	if len(fs) != 2 {
		t.Fatalf("Find = %v, want 2 findings", fs)
	}
	if got := s[fs[0].Start:fs[0].End]; got != awsKeyID || fs[0].Kind != "aws-access-key" {
		t.Errorf("first finding %q %s", got, fs[0].Kind)
	}
	if got := s[fs[1].Start:fs[1].End]; got != "pw123456" || fs[1].Kind != "url-password" {
		t.Errorf("second finding %q %s", got, fs[1].Kind)
	}
}

func TestExtraPatterns(t *testing.T) {
	r, err := New([]string{`ACME-[0-9]{6}`, `internal_key\((\w+)\)`})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := r.Redact("ticket ACME-123456 uses internal_key(abc) here")
	want := "ticket [REDACTED:custom] uses internal_key([REDACTED:custom]) here"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestNewRejectsBadPattern(t *testing.T) {
	for _, extra := range [][]string{{`ok`, `(unclosed`}, {``}} {
		_, err := New(extra)
		if err == nil {
			t.Errorf("New(%q) succeeded", extra)
			continue
		}
		if bad := extra[len(extra)-1]; bad != "" && !strings.Contains(err.Error(), bad) {
			t.Errorf("error %q does not name the pattern %q", err, bad)
		}
	}
}

func FuzzRedact(f *testing.F) {
	for _, s := range []string{
		"password=hunter2", "https://a:b@c", awsKeyID, githubPAT, jwt, pemBlock,
		"aws " + awsSecret, "Bearer " + bearer, "token: [REDACTED:token]", "sk-" + "ant-x",
		"PuTTY-User-Key-File-3: ssh-rsa\nPrivate-Lines: 2\nQUJD\nREVG\nPrivate-MAC: 0a1b",
		"kind: Secret\ndata:\n  password: aHVudGVyMg==\n", `{"auths":{"r":{"auth":"dXNlcjpwYXNzd29yZDE="}}}`,
		`"sk-" + "proj-` + "Ab3dEf6hIj9kLm2nOp5q" + `"`, "echo c2stcHJvai1BYjNkRWY2aElqOWtMbTJuT3A1cQ== | base64 -d",
		"SECRET_KEY_BASE=" + "0a1b2c3d4e5f6a7b8c9d", "redis://:" + "pw123456@h", "明文密码 `" + "Cam3ra!" + "`",
		"la contraseña es `" + "Gatito99" + "`", "curl -u admin:" + "S3cret99 https://x",
		"machine h login a password " + "Pw9xK2mQ7z", "Cookie: sid=" + "Ab3dEf6hIj9kLm2n", "sshpass -p " + "Pw9xK2mQ7z ssh h",
		"docker run -e SECRET_KEY_BASE=" + "0a1b2c3d4e5f6a7b8c9d x", "LS0tLS1CRUdJTiBQUklWQVRFIEtF\nWS0tLS0tCk1JSUV2UUlCQURBTkJn\n",
	} {
		f.Add(s)
	}
	r := newRedactor(f)
	f.Fuzz(func(t *testing.T, s string) {
		out, fs := r.Redact(s)
		for _, fd := range fs {
			if fd.Start < 0 || fd.End > len(s) || fd.Start >= fd.End {
				t.Fatalf("bad finding %+v for input of %d bytes", fd, len(s))
			}
		}
		if again := r.Find(out); len(again) != 0 {
			t.Fatalf("Redact(%q) = %q still has %v", s, out, again)
		}
	})
}

func BenchmarkRedact(b *testing.B) {
	line := "user: the deploy failed again, see https://ci.example.com/build/1234 and run make test\n" +
		"assistant: I ran `go test ./...` and the error was in internal/store/apply.go:42\n"
	text := strings.Repeat(line, 5000) + "password=hunter2 " + githubPAT
	r := newRedactor(b)
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for b.Loop() {
		r.Redact(text)
	}
}

func TestTokenWordInLogsIsNotASecret(t *testing.T) {
	r, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`{"token": 3816, "kind": "ident"}`, "fetch token: got 129 results", "token = next"} {
		if f := r.Find(s); len(f) != 0 {
			t.Errorf("Find(%q) = %v, want nothing", s, f)
		}
	}
	for _, s := range []string{"GITHUB_TOKEN=" + "a8f3Kq92LmZx7Pw1", `"token": "` + "eyJhbGciOiJIUzI1NiJ9x" + `"`} {
		if f := r.Find(s); len(f) == 0 {
			t.Errorf("Find(%q) found nothing", s)
		}
	}
}

func TestCredentialsInProse(t *testing.T) {
	r, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		in, secret string
	}{
		{"The Grafana admin password is " + "Granite-Otter-4471" + ", don't share it.", "Granite-Otter-4471"},
		{"the wifi passphrase: " + "Tr0ub4dor&3", "Tr0ub4dor&3"},
		{"Our staging token is now " + "x7Kp2mQ9", "x7Kp2mQ9"},
	}
	for _, tt := range tests {
		out, found := r.Redact(tt.in)
		if len(found) == 0 || strings.Contains(out, tt.secret) {
			t.Errorf("Redact(%q) = %q", tt.in, out)
		}
	}
	for _, s := range []string{"the password is wrong", "the token is expired", "the secret is out", "the api key is missing from the env"} {
		if f := r.Find(s); len(f) != 0 {
			t.Errorf("Find(%q) = %v, want nothing", s, f)
		}
	}
}

// TestRedactSeesThroughInvisibleCharacters: a credential split by characters that show as
// nothing (a zero-width space, a soft hyphen) is still found, and the invisible characters go
// with it; text that merely holds them is left alone.
func TestRedactSeesThroughInvisibleCharacters(t *testing.T) {
	r, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ in, want string }{
		{"key AKIA2E0A\u200b8F3B9C7D1E5F here", "key [REDACTED:aws-access-key] here"},
		{"token ghp_aB3dE5fG7hJ9\u00adkL1mN3pQ5rS7tU9vW1xY3zA5.", "token [REDACTED:github-token]."},
		{"family 👨\u200d👩\u200d👧 and a soft\u00adhyphen", "family 👨\u200d👩\u200d👧 and a soft\u00adhyphen"},
	}
	for _, tt := range tests {
		if got, _ := r.Redact(tt.in); got != tt.want {
			t.Errorf("Redact(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
