package redact

import (
	"encoding/base64"
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The credential table: one or more examples of each provider's documented shape, in the context a
// person pastes it in. Every credential is generated here from its shape with a fixed seed, so the
// repository holds no literal that looks like a live credential and the table is the same on
// every run.

const (
	lowerHex = "0123456789abcdef"
	alnum    = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	letters  = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	upperNum = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	b64url   = alnum + "-_"
)

// gen makes random strings of the given alphabets, the same ones every run.
type gen struct{ r *rand.Rand }

func newGen() *gen { return &gen{rand.New(rand.NewPCG(30, 23))} }

// of is n characters of alphabet, with at least one upper-case letter, one lower-case letter and
// one digit when the alphabet has them (as a generated credential of that length does).
func (g *gen) of(alphabet string, n int) string {
	for {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[g.r.IntN(len(alphabet))]
		}
		s := string(b)
		if n < 12 || (!strings.ContainsAny(alphabet, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") || strings.ContainsAny(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ")) &&
			(!strings.ContainsAny(alphabet, "abcdefghijklmnopqrstuvwxyz") || strings.ContainsAny(s, "abcdefghijklmnopqrstuvwxyz")) &&
			(!strings.ContainsAny(alphabet, "0123456789") || strings.ContainsAny(s, "0123456789")) {
			return s
		}
	}
}

// credentialCase is one example: the text a person wrote, and the parts of it that must not reach
// the model (a split key's pieces each).
type credentialCase struct {
	provider, format string
	text             string
	secrets          []string
}

func credentialTable() []credentialCase {
	g := newGen()
	var cases []credentialCase
	add := func(provider, format, text string, secrets ...string) {
		cases = append(cases, credentialCase{provider, format, text, secrets})
	}
	token := func(provider, format, context, secret string) {
		add(provider, format, strings.Replace(context, "%s", secret, 1), secret)
	}

	// Issue 30's list, first.
	xapp := "xapp-1-A" + g.of(upperNum, 10) + "-" + g.of("0123456789", 13) + "-" + g.of(lowerHex, 64)
	token("Slack", "app-level token xapp-1-", "SLACK_APP_TOKEN=%s", xapp)
	token("Slack", "app-level token in prose", "the socket mode token is %s, keep it", xapp)
	token("Slack", "bot token xoxb-", "bot: %s", "xoxb-"+g.of("0123456789", 12)+"-"+g.of("0123456789", 13)+"-"+g.of(alnum, 24))
	token("Slack", "refresh token xoxe-", "refresh with %s", "xoxe-1-"+g.of(alnum, 140))
	token("Slack", "config token xoxe.xoxp-", "config %s", "xoxe.xoxp-1-"+g.of(alnum, 160))
	token("Stripe", "webhook secret whsec_", "STRIPE_WEBHOOK_SECRET=%s", "whsec_"+g.of(alnum, 32))
	token("Stripe", "webhook secret, CLI", "Ready! Your webhook signing secret is %s (^C to quit)", "whsec_"+g.of(lowerHex, 64))
	token("Stripe", "secret key sk_live_", "Stripe::api_key = '%s'", "sk_live_"+g.of(alnum, 99))
	token("Stripe", "restricted key rk_live_", "use %s for reporting", "rk_live_"+g.of(alnum, 99))
	for _, p := range []string{"glpat", "gldt", "glrt", "glft", "glsoat", "glffct"} {
		token("GitLab", p+"- token", "curl --header \"PRIVATE-TOKEN: %s\" https://gitlab.example.com/api/v4/projects", p+"-"+g.of(b64url, 20))
	}
	token("GitLab", "routable PAT", "git clone https://oauth2:%s@gitlab.com/g/p.git", "glpat-"+g.of(alnum, 27)+".01"+g.of("abcdefghij0123456789", 7))
	token("GitLab", "routable runner token", "token = \"%s\"", "glrt-t1_"+g.of(alnum, 27)+".01"+g.of("abcdefghij0123456789", 7))
	token("GitLab", "runner registration GR1348941", "gitlab-runner register --registration-token %s", "GR1348941"+g.of(alnum, 20))
	token("GitLab", "CI job token glcbt-", "job token %s", "glcbt-"+g.of(alnum, 5)+"_"+g.of(alnum, 20))
	token("GitLab", "trigger token glptt-", "trigger: %s", "glptt-"+g.of(lowerHex, 40))
	token("GitLab", "incoming mail glimt-", "mail token %s", "glimt-"+g.of(alnum, 25))
	token("GitLab", "agent token glagent-", "agent %s", "glagent-"+g.of(alnum, 50))
	token("GitLab", "OAuth app secret gloas-", "client secret %s", "gloas-"+g.of(alnum, 64))
	ppkPublic := strings.Join([]string{g.of(alnum, 64), g.of(alnum, 64), g.of(alnum, 20) + "=="}, "\n")
	ppkPrivate := []string{g.of(alnum+"+/", 64), g.of(alnum+"+/", 64), g.of(alnum+"+/", 64), g.of(alnum, 30) + "="}
	ppk := "PuTTY-User-Key-File-3: ssh-rsa\nEncryption: none\nComment: rsa-key-20260101\nPublic-Lines: 3\n" + ppkPublic +
		"\nPrivate-Lines: 4\n" + strings.Join(ppkPrivate, "\n") + "\nPrivate-MAC: " + g.of(lowerHex, 64) + "\n"
	add("PuTTY", "private key (.ppk)", "here is my key file:\n"+ppk+"can you convert it?", ppkPrivate...)
	redisPw := g.of(alnum, 24)
	token("URL password", "redis://:password@ (no user)", "REDIS_URL=redis://:%s@cache.internal:6379/0", redisPw)
	token("URL password", "rediss://:password@ in prose", "connect to rediss://:%s@10.0.0.5:6380 first", g.of(alnum, 16))
	token("URL password", "postgres://user:password@", "psql postgres://app:%s@db:5432/shop", g.of(alnum, 18))
	env := func(name, value string) {
		add(".env", name, "# .env\nRAILS_ENV=production\n"+name+"="+value+"\nPORT=3000\n", value)
	}
	env("SECRET_KEY_BASE", g.of(lowerHex, 128))
	env("JWT_SECRET", g.of(alnum, 48))
	env("SENDGRID_API_KEY", "SG."+g.of(b64url, 22)+"."+g.of(b64url, 43))
	env("TWILIO_AUTH_TOKEN", g.of(lowerHex, 32))
	env("MAILGUN_API_KEY", "key-"+g.of(lowerHex, 32))
	env("SESSION_SECRET", g.of(alnum, 32))
	env("DB_PASS", g.of(alnum, 14))
	env("AUTH_SALT", g.of(alnum+"!@#", 40))
	signing := g.of(alnum, 40)
	add(".env", "quoted, exported", "export APP_SIGNING_KEY=\""+signing+"\"\n", signing)
	token("Mailgun", "private key key-", "mailgun key %s", "key-"+g.of(lowerHex, 32))
	token("SendGrid", "API key SG.", "sg = SendGridAPIClient(%s)", "SG."+g.of(b64url, 22)+"."+g.of(b64url, 43))
	token("Twilio", "API key SK", "api key sid %s", "SK"+g.of(lowerHex, 32))
	token("curl", "-u user:password", "curl -u admin:%s https://api.example.com/v1/items", g.of(alnum, 16))
	token("curl", "--user user:password", "curl -s --user 'deploy:%s' https://ci.example.com", g.of(alnum, 12)+"!")
	token("Authorization", "token <40 hex> (GitHub)", "curl -H 'Authorization: token %s' https://api.github.com/user", g.of(lowerHex, 40))
	token("Authorization", "Bearer", "Authorization: Bearer %s", g.of(b64url, 40))
	token("Authorization", "Basic", "-H \"Authorization: Basic %s\"", base64.StdEncoding.EncodeToString([]byte("admin:"+g.of(alnum, 12))))
	b64Key := base64.StdEncoding.EncodeToString([]byte("sk-proj-" + g.of(alnum, 48)))
	token("base64", "echo … | base64 -d", "echo %s | base64 -d", b64Key)
	token("base64", "base64 -d <<<", "base64 --decode <<< \"%s\"", base64.StdEncoding.EncodeToString([]byte(g.of(alnum, 32))))
	k8sPw := base64.StdEncoding.EncodeToString([]byte(g.of(alnum, 20)))
	k8sKey := base64.StdEncoding.EncodeToString([]byte(g.of(alnum, 32)))
	add("base64", "Kubernetes Secret data:", "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ntype: Opaque\ndata:\n  username: YWRtaW4=\n  password: "+k8sPw+"\n  api-key: "+k8sKey+"\n", k8sPw, k8sKey)
	dockerAuth := base64.StdEncoding.EncodeToString([]byte("robot$ci:" + g.of(alnum, 32)))
	token("base64", "docker config.json \"auth\"", "{\n  \"auths\": {\n    \"registry.example.com\": {\n      \"auth\": \"%s\"\n    }\n  }\n}", dockerAuth)
	pemB64 := base64.StdEncoding.EncodeToString([]byte("-----BEGIN " + "RSA PRIVATE KEY-----\n" + g.of(alnum, 64) + "\n-----END RSA PRIVATE KEY-----\n"))
	token("base64", "a PEM key in base64 (CI variable)", "GITHUB_APP_PRIVATE_KEY_B64=%s", pemB64)
	wrappedPEM := base64.StdEncoding.EncodeToString([]byte("-----BEGIN " + "PRIVATE KEY-----\n" + g.of(alnum, 64) + "\n" + g.of(alnum, 64) + "\n-----END PRIVATE KEY-----\n"))
	var lines []string
	for len(wrappedPEM) > 76 {
		lines, wrappedPEM = append(lines, wrappedPEM[:76]), wrappedPEM[76:]
	}
	lines = append(lines, wrappedPEM)
	add("base64", "a key base64-wrapped at 76 columns", "$ base64 key.pem\n"+strings.Join(lines, "\n")+"\n$ ", lines...)
	k8sJSON := base64.StdEncoding.EncodeToString([]byte(g.of(alnum, 24)))
	token("base64", "Kubernetes Secret as JSON", "{\n  \"apiVersion\": \"v1\",\n  \"data\": {\n    \"db-pass\": \"%s\"\n  },\n  \"kind\": \"Secret\"\n}", k8sJSON)
	token("CLI password", "sshpass -p", "sshpass -p '%s' ssh deploy@10.0.0.9", g.of(alnum, 14))
	token("CLI password", "redis-cli -a", "redis-cli -h cache -a %s ping", g.of(alnum, 20))
	token("CLI password", "openssl -passin pass:", "openssl pkcs12 -in c.p12 -passin pass:%s -nodes", g.of(alnum, 12))
	token("CLI password", "docker login -p", "docker login registry.example.com -u ci -p %s", g.of(alnum, 24))
	token("CLI password", "kubectl --from-literal", "kubectl create secret generic db --from-literal=password=%s", g.of(alnum, 16))
	token("CLI password", ".netrc", "machine api.example.com login ana password %s", g.of(alnum, 20))
	token("CLI password", ".npmrc _auth", "//registry.example.com/:_auth=%s", base64.StdEncoding.EncodeToString([]byte("ana:"+g.of(alnum, 12))))
	token("Cookie", "a session cookie", "curl -H 'Cookie: sessionid=%s; csrftoken=x' https://app", g.of(alnum, 32))
	inline := g.of(lowerHex, 64)
	token(".env", "docker run -e NAME=value", "docker run -e SECRET_KEY_BASE=%s -p 3000:3000 app", inline)
	token(".env", "JSON on one line", `{"SECRET_KEY_BASE": "%s", "RAILS_ENV": "production"}`, g.of(lowerHex, 64))
	split := "sk-proj-" + g.of(alnum, 48)
	add("split", "string concatenation (\"sk-\" + \"…\")", `const key = "sk-" + "`+split[3:24]+`" + "`+split[24:]+`";`, split[3:24], split[24:])
	ghp := g.of(alnum, 36)
	add("split", "Python implicit concatenation across lines", "api_key = (\"ghp_"+ghp[:18]+"\"\n           \""+ghp[18:]+"\")", ghp[:18], ghp[18:])
	wrapped := "github_pat_" + g.of(alnum, 22) + "_" + g.of(alnum, 59)
	add("split", "key wrapped across lines", "my token:\n"+wrapped[:40]+"\n"+wrapped[40:]+"\nthanks", wrapped[:40], wrapped[40:])
	add("split", "key with a space in it", "OPENAI_API_KEY="+split[:30]+" "+split[30:], split[:30], split[30:])
	token("Hugging Face", "user access token hf_", "huggingface-cli login --token %s", "hf_"+g.of(letters, 34))
	token("Hugging Face", "org token api_org_", "HF org %s", "api_org_"+g.of(letters, 34))
	token("DigitalOcean", "personal token dop_v1_", "doctl auth init -t %s", "dop_v1_"+g.of(lowerHex, 64))
	token("DigitalOcean", "OAuth token doo_v1_", "token %s", "doo_v1_"+g.of(lowerHex, 64))
	token("DigitalOcean", "refresh token dor_v1_", "refresh %s", "dor_v1_"+g.of(lowerHex, 64))
	token("Vault", "service token hvs.", "export VAULT_TOKEN=%s", "hvs."+g.of(b64url, 95))
	token("Vault", "batch token hvb.", "vault login %s", "hvb."+g.of(b64url, 138))
	token("Vault", "recovery token hvr.", "recovery %s", "hvr."+g.of(b64url, 24))
	for _, p := range []string{"shpat_", "shpca_", "shppa_", "shpss_"} {
		token("Shopify", p, "X-Shopify-Access-Token: %s", p+g.of(lowerHex, 32))
	}

	// Issue 23: a password in prose, in the languages people write to their agents in.
	prose := []struct{ language, text string }{
		{"Chinese", "摄像头的明文密码 `%s`，别外传"},
		{"Chinese", "数据库密码是%s"},
		{"Japanese", "カメラのパスワードは「%s」です"},
		{"Korean", "비밀번호는 `%s` 입니다"},
		{"Spanish", "la contraseña de la cámara es `%s`"},
		{"Spanish", "la contraseña es %s"},
		{"Portuguese", "a senha é \"%s\""},
		{"French", "le mot de passe est « %s »"},
		{"German", "das Passwort lautet `%s`"},
		{"Dutch", "het wachtwoord is '%s'"},
		{"Russian", "пароль от роутера: `%s`"},
		{"Vietnamese", "mật khẩu là `%s`"},
		{"English", "the camera password `%s` works"},
		{"English", "the admin password is %s"},
	}
	for _, p := range prose {
		token("prose: "+p.language, "password in prose", p.text, g.of(alnum, 10)+"#")
	}
	token("prose: Chinese", "token (令牌) quoted", "令牌：`%s`", g.of(alnum, 32))
	for _, p := range []struct{ language, text string }{
		{"Arabic", "كلمة المرور هي `%s`"}, {"Hindi", "पासवर्ड है `%s`"}, {"Swedish", "lösenordet är `%s`"},
		{"Czech", "heslo je `%s`"}, {"Greek", "ο κωδικός είναι `%s`"}, {"Italian", "la password è `%s`"},
	} {
		token("prose: "+p.language, "password in prose", p.text, g.of(alnum, 10)+"!")
	}
	token("Ethereum", "private key in a .env", "PRIVATE_KEY=%s", "0x"+g.of(lowerHex, 64))
	token("prose: German", "key (Schlüssel) quoted", "der Schlüssel ist `%s`", g.of(alnum, 32))

	// Providers that were covered before, and their siblings.
	token("AWS", "access key id", "aws_access_key_id = %s", "AKIA"+g.of(upperNum, 16))
	token("AWS", "secret access key", "aws_secret_access_key = %s", g.of(alnum+"/+", 40))
	token("GitHub", "classic PAT ghp_", "git remote set-url origin https://%s@github.com/o/r", "ghp_"+g.of(alnum, 36))
	token("GitHub", "fine-grained github_pat_", "GH_TOKEN=%s", "github_pat_"+g.of(alnum, 22)+"_"+g.of(alnum, 59))
	token("GitHub", "app token ghs_", "installation token %s", "ghs_"+g.of(alnum, 36))
	token("OpenAI", "project key", "OPENAI_API_KEY=%s", "sk-proj-"+g.of(b64url, 120))
	token("Anthropic", "API key", "ANTHROPIC_API_KEY=%s", "sk-ant-api03-"+g.of(b64url, 93)+"AA")
	token("DeepSeek", "sk- and hex", "deepseek key %s", "sk-"+g.of(lowerHex, 32))
	token("OpenRouter", "sk-or-v1-", "key %s", "sk-or-v1-"+g.of(lowerHex, 64))
	token("Google", "API key AIza", "maps %s", "AIza"+g.of(b64url, 35))
	token("Google", "OAuth client secret GOCSPX-", "client_secret %s", "GOCSPX-"+g.of(b64url, 28))
	token("Google", "OAuth access token ya29.", "token ya29.%s", g.of(b64url, 120))
	token("npm", "npm_", "//registry.npmjs.org/:_authToken=%s", "npm_"+g.of(alnum, 36))
	token("PyPI", "pypi-", "password = %s", "pypi-AgEIcHlwaS5vcmc"+g.of(b64url, 70))
	token("SendGrid", "in code", "sendgrid.setApiKey(\"%s\")", "SG."+g.of(b64url, 22)+"."+g.of(b64url, 43))
	token("Linear", "lin_api_", "LINEAR %s", "lin_api_"+g.of(alnum, 40))
	token("Postman", "PMAK-", "postman %s", "PMAK-"+g.of(lowerHex, 24)+"-"+g.of(lowerHex, 34))
	token("Doppler", "dp.pt.", "doppler %s", "dp.pt."+g.of(alnum, 43))
	token("Doppler", "service token dp.st.<config>.", "doppler %s", "dp.st.prd."+g.of(alnum, 40))
	token("Discord", "bot token", "client.login(\"%s\")", base64.RawStdEncoding.EncodeToString([]byte(g.of("0123456789", 18)))+"."+g.of(b64url, 6)+"."+g.of(b64url, 38))
	token("Pulumi", "pul-", "pulumi login %s", "pul-"+g.of(lowerHex, 40))
	token("Databricks", "dapi", "databricks %s", "dapi"+g.of(lowerHex, 32))
	token("Grafana", "cloud token glc_", "grafana %s", "glc_"+g.of(alnum, 40)+"==")
	token("Grafana", "service account glsa_", "grafana sa %s", "glsa_"+g.of(alnum, 32)+"_"+g.of(lowerHex, 8))
	token("New Relic", "NRAK-", "newrelic %s", "NRAK-"+g.of(upperNum, 27))
	token("Sentry", "org token sntrys_", "SENTRY %s", "sntrys_"+g.of(alnum, 60))
	token("Notion", "ntn_", "notion %s", "ntn_"+g.of("0123456789", 11)+g.of(alnum, 35))
	token("age", "AGE-SECRET-KEY-1", "identity %s", "AGE-SECRET-KEY-1"+g.of("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58))
	token("Atlassian", "ATATT3", "jira %s", "ATATT3"+g.of(b64url, 180))
	token("Tailscale", "tskey-auth-", "tailscale up --authkey %s", "tskey-auth-"+g.of(alnum, 12)+"-"+g.of(alnum, 32))
	token("Docker Hub", "dckr_pat_", "docker login -u me -p %s", "dckr_pat_"+g.of(b64url, 27))
	token("Terraform Cloud", ".atlasv1.", "token = \"%s\"", g.of("abcdefghijklmnopqrstuvwxyz0123456789", 14)+".atlasv1."+g.of(b64url, 67))
	token("Groq", "gsk_", "GROQ %s", "gsk_"+g.of(alnum, 52))
	token("xAI", "xai-", "grok %s", "xai-"+g.of(alnum, 80))
	token("Perplexity", "pplx-", "pplx %s", "pplx-"+g.of(alnum, 48))
	token("Replicate", "r8_", "replicate %s", "r8_"+g.of(alnum, 37))
	token("Azure", "AD client secret", "client secret %s", g.of(alnum, 3)+"8Q~"+g.of(alnum+"_~.-", 34))
	token("Supabase", "sbp_", "supabase %s", "sbp_"+g.of(lowerHex, 40))
	token("PlanetScale", "pscale_tkn_", "pscale %s", "pscale_tkn_"+g.of(alnum, 43))
	token("Figma", "figd_", "figma %s", "figd_"+g.of(b64url, 40))
	token("Buildkite", "bkua_", "buildkite %s", "bkua_"+g.of(lowerHex, 40))
	token("Alibaba", "LTAI", "aliyun %s", "LTAI"+g.of(alnum, 20))
	token("Square", "sq0atp-", "square %s", "sq0atp-"+g.of(b64url, 22))
	token("Fly.io", "fo1_", "fly %s", "fo1_"+g.of(b64url, 43))
	token("Heroku", "HRKU-", "heroku %s", "HRKU-"+g.of(b64url, 60))
	token("RubyGems", "rubygems_", "gem %s", "rubygems_"+g.of(lowerHex, 48))
	token("LangSmith", "lsv2_pt_", "LANGSMITH %s", "lsv2_pt_"+g.of(lowerHex, 32)+"_"+g.of(lowerHex, 10))
	token("Contentful", "CFPAT-", "contentful %s", "CFPAT-"+g.of(b64url, 43))
	token("Telegram", "bot token", "bot %s", g.of("0123456789", 10)+":AA"+g.of(b64url, 33))
	token("JWT", "a session token", "cookie: session=%s", "eyJ"+g.of(b64url, 30)+".eyJ"+g.of(b64url, 60)+"."+g.of(b64url, 43))
	token("PEM", "private key block", "%s", "-----BEGIN "+"OPENSSH PRIVATE KEY-----\n"+g.of(alnum, 70)+"\n"+g.of(alnum, 70)+"\n-----END OPENSSH PRIVATE KEY-----")
	return cases
}

// TestCredentialRecall: every credential of the table is redacted, whole. With -v it prints the
// recall per provider (see TestRedactionReport for the false-positive side).
func TestCredentialRecall(t *testing.T) {
	r := newRedactor(t)
	type tally struct{ found, total int }
	byProvider := map[string]*tally{}
	var providers []string
	for _, c := range credentialTable() {
		tl := byProvider[c.provider]
		if tl == nil {
			tl = &tally{}
			byProvider[c.provider] = tl
			providers = append(providers, c.provider)
		}
		tl.total++
		out, _ := r.Redact(c.text)
		leaked := slices.ContainsFunc(c.secrets, func(s string) bool { return s == "" || strings.Contains(out, s) })
		if leaked {
			t.Errorf("%s, %s: not redacted:\n%s\n→ %s", c.provider, c.format, c.text, out)
			continue
		}
		tl.found++
	}
	found, total := 0, 0
	for _, p := range providers {
		tl := byProvider[p]
		found, total = found+tl.found, total+tl.total
		t.Logf("recall %-18s %2d/%-2d", p, tl.found, tl.total)
	}
	t.Logf("recall: %d of %d credential formats (%.1f%%), %d providers", found, total, 100*float64(found)/float64(total), len(providers))
}

// TestRedactionReport measures the false-positive rate on real code that holds no secret: this
// repository's Go source (non-test) and the Go source of every module it depends on (from the
// module cache; skipped when it is not there). The repository's own code must have none (see
// TestRepositorySourceHasNoFindings); the modules' figure is printed with -v, and kept at zero
// too, test files and test data aside (they hold fake keys on purpose).
func TestRedactionReport(t *testing.T) {
	if run := flag.Lookup("test.run"); run == nil || !strings.Contains(run.Value.String(), "TestRedactionReport") {
		t.Skip("reads every dependency's source (60 MB): run it by name, go test -run TestRedactionReport -v")
	}
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "all").Output()
	if err != nil {
		t.Skipf("go list -m: %v", err)
	}
	r := newRedactor(t)
	var files, bytes int
	var found []string
	for _, dir := range strings.Fields(string(out)) {
		if filepath.Base(dir) == "redact" || !strings.Contains(dir, "@") {
			continue // this module: TestRepositorySourceHasNoFindings
		}
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() && (d.Name() == "testdata" || d.Name() == "vendor") {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return nil
			}
			files++
			bytes += len(data)
			for _, f := range r.Find(string(data)) {
				rel, _ := filepath.Rel(filepath.Dir(dir), p)
				found = append(found, fmt.Sprintf("%s: %s: %q", rel, f.Kind, data[f.Start:f.End]))
			}
			return nil
		})
	}
	if files == 0 {
		t.Skip("no module source in the module cache")
	}
	t.Logf("false positives on dependency source: %d findings in %d files (%d bytes)", len(found), files, bytes)
	for _, f := range found {
		t.Errorf("false positive: %s", f)
	}
}
