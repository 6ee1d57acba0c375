package redact

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/dreamd/dreamd/internal/lazyre"
)

// rule is one kind of secret. Rules are tried in order; when two findings cover the same text the
// earlier rule names it, so specific kinds come before the generic ones.
type rule struct {
	kind string
	re   *regexp.Regexp
	// find replaces re where a regular expression would be slow; it returns [start, end) spans.
	find func(s string) [][]int
	// literals is the prefilter: the rule runs only on lines that contain one of them (compared
	// in lower case when fold is set). Empty means always run, on the whole text.
	literals []string
	fold     bool
	// word says a match holds no whitespace, so only the word around a literal is scanned.
	word bool
	// keep rejects a candidate that only looks like a secret (a placeholder, a git SHA).
	keep func(secret string) bool
	// near, when set, is a cheap test at a literal's position; the pattern runs only where it
	// passes. Assignments use it to skip the many "passed", "token limit", "key insight".
	near func(s string, at int) bool
	// fits, when set, rejects a match by what surrounds its secret (m is the submatch index
	// slice in s): a word for a password that names something else ("getent passwd 'bob'").
	fits func(s string, m []int) bool
}

// builtinRules returns the secret kinds dreamd always redacts. When a pattern has capture groups,
// the first group that took part in the match is the secret and the rest of the match (a key
// name, a URL's user and host) stays readable.
func builtinRules() []rule {
	return slices.Concat(keyRules(), providerRules(), genericRules(), structuredRules())
}

// keyRules are the first providers' keys and private key blocks.
func keyRules() []rule {
	return []rule{
		{kind: "private-key", find: findPEM, literals: []string{"PRIVATE KEY"}},
		{kind: "private-key", find: findPuTTY, literals: []string{"Private-Lines:"}},
		{
			kind:     "aws-access-key",
			re:       regexp.MustCompile(`\b(?:AKIA|ASIA)[A-Z0-9]{16}\b`),
			literals: []string{"AKIA", "ASIA"},
			word:     true,
		},
		{
			kind:     "aws-secret-key",
			re:       regexp.MustCompile(`(?i:aws_secret_access_key|aws_secret_key|secretaccesskey)["']?[ \t]*[:=][ \t]*["']?([A-Za-z0-9/+=]{40})`),
			literals: []string{"secret"},
			fold:     true,
		},
		{
			// A bare 40-character base64 string on the same line as "aws" or "secret".
			kind:     "aws-secret-key",
			re:       regexp.MustCompile(`(?i:aws|secret)[^\n]{0,80}?[^A-Za-z0-9/+=]([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)`),
			literals: []string{"aws", "secret"},
			fold:     true,
			keep:     mixedCase,
		},
		{
			kind:     "github-token",
			re:       regexp.MustCompile(`\bgh[pousr]_[A-Za-z0-9]{30,255}\b|\bgithub_pat_[A-Za-z0-9_]{22,255}\b`),
			literals: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"},
			word:     true,
		},
		{
			kind:     "gitlab-token",
			re:       regexp.MustCompile(`\bglpat-[A-Za-z0-9_-]{20,}`),
			literals: []string{"glpat-"},
			word:     true,
		},
		{
			// Presigned and signed URLs (AWS SigV4, Google Cloud Storage V4, Azure SAS): the
			// signature and the credential in the query are the secret; the URL stays readable.
			kind:     "signed-url",
			re:       regexp.MustCompile(`[?&](?i:X-Amz-Signature|X-Amz-Credential|X-Amz-Security-Token|X-Goog-Signature|X-Goog-Credential|AWSAccessKeyId|Signature|sig)=([^&\s"'<>#]{8,})`),
			literals: []string{"x-amz-", "x-goog-", "sig=", "signature=", "awsaccesskeyid="},
			fold:     true,
			word:     true,
			keep:     notPlaceholder,
		},
		{
			kind:     "npm-token",
			re:       regexp.MustCompile(`\bnpm_[A-Za-z0-9]{36}\b`),
			literals: []string{"npm_"},
			word:     true,
			keep:     notPlaceholder,
		},
		{
			kind:     "pypi-token",
			re:       regexp.MustCompile(`\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{40,}`),
			literals: []string{"pypi-"},
			word:     true,
		},
		{
			kind:     "discord-webhook",
			re:       regexp.MustCompile(`discord(?:app)?\.com/api/webhooks/[0-9]+/([A-Za-z0-9_-]{20,})`),
			literals: []string{"discord"},
			word:     true,
		},
		{
			kind:     "telegram-bot-token",
			re:       regexp.MustCompile(`\b([0-9]{8,10}:AA[0-9A-Za-z_-]{33})(?:[^0-9A-Za-z_-]|$)`),
			literals: []string{":AA"},
			word:     true,
		},
		{
			// Azure storage and Service Bus connection strings.
			kind:     "azure-key",
			re:       regexp.MustCompile(`(?i:AccountKey|SharedAccessKey)=([A-Za-z0-9+/]{20,}={0,2})`),
			literals: []string{"accountkey=", "sharedaccesskey="},
			fold:     true,
			word:     true,
			keep:     notPlaceholder,
		},
		{
			// A password given on a database client's command line: mysql -uroot -pS3cret.
			kind:     "password",
			re:       regexp.MustCompile(`\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n]*?[ \t]-p([^\s'"]{3,})`),
			literals: []string{"mysql", "mariadb"},
			fold:     true,
			keep:     notPlaceholder,
		},
		{
			// A secret's value set on the command line of a CLI that stores secrets:
			// gh secret set NAME --body VALUE (or -b VALUE, -bVALUE, --body=VALUE).
			kind:     "secret",
			re:       regexp.MustCompile(`\bgh[ \t]+secret[ \t]+set\b[^\n]*?[ \t](?:--body[ \t=]+|-b[ \t]*)['"]?([^\s'"]{3,})`),
			literals: []string{"secret set"},
			keep:     notPlaceholder,
		},
		{
			kind:     "slack-webhook",
			re:       regexp.MustCompile(`hooks\.slack\.com/services/([A-Za-z0-9_/-]{10,})`),
			literals: []string{"hooks.slack.com"},
			word:     true,
		},
		{
			kind:     "slack-token",
			re:       regexp.MustCompile(`\bxox[abeoprs]-[A-Za-z0-9-]{10,}`),
			literals: []string{"xox"},
			word:     true,
		},
		{
			kind:     "anthropic-key",
			re:       regexp.MustCompile(`\bsk-ant-[A-Za-z0-9_-]{20,}`),
			literals: []string{"sk-ant-"},
			word:     true,
		},
		{
			// OpenAI's keys, and the many providers that copied their sk- shape (DeepSeek's are
			// sk- and 32 hex digits).
			kind:     "openai-key",
			re:       regexp.MustCompile(`\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}`),
			literals: []string{"sk-"},
			word:     true,
			keep:     skKey,
		},
		{
			kind:     "stripe-key",
			re:       regexp.MustCompile(`\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}`),
			literals: []string{"_live_", "_test_"},
			word:     true,
		},
		{
			kind:     "google-api-key",
			re:       regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}`),
			literals: []string{"AIza"},
			word:     true,
		},
		{
			kind:     "jwt",
			re:       regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*`),
			literals: []string{"eyJ"},
			word:     true,
		},
	}
}

// genericRules find credentials by what surrounds them: a URL's password, an Authorization
// header, an assignment to a key named like a secret, a password said in prose.
func genericRules() []rule {
	return []rule{
		{
			// The user may be empty: redis://:password@host.
			kind:     "url-password",
			re:       regexp.MustCompile(`\b[A-Za-z][A-Za-z0-9+.-]*://[^\s:/?#@"'<>\[\]]*:([^\s/?#"'<>]+)@`),
			literals: []string{"://"},
			word:     true,
			keep:     notPlaceholder,
		},
		{
			kind:     "bearer-token",
			re:       regexp.MustCompile(`(?i:bearer)[ \t]+([A-Za-z0-9._~+/-]{20,}=*)`),
			literals: []string{"bearer"},
			fold:     true,
			keep:     randomLooking,
		},
		{
			kind:     "basic-auth",
			re:       regexp.MustCompile(`(?i:authorization)["']?[ \t]*[:=][ \t]*["']?(?i:basic)[ \t]+([A-Za-z0-9+/]{4,}={0,2})`),
			literals: []string{"authorization"},
			fold:     true,
		},
		{
			// Any other scheme: "Authorization: token <40 hex>" (GitHub), "SSWS …" (Okta),
			// "ApiKey …", or a bare credential.
			kind:     "authorization",
			re:       regexp.MustCompile(`(?i:authorization)["']?[ \t]*[:=][ \t]*["']?(?:[A-Za-z][A-Za-z0-9_-]{1,24}[ \t]+)?([A-Za-z0-9._~+/=:-]{16,})`),
			literals: []string{"authorization"},
			fold:     true,
			keep:     credentialLike,
		},
		{
			// curl -u user:password, httpie -a user:password; `curl -u user:` asks for it instead.
			kind:     "password",
			re:       regexp.MustCompile(`\b(?:curl|http|https|wget)\b[^\n]*?[ \t](?:-u|--user|-a|--auth)(?:[ \t]+|=)["']?[^\s:"'` + "`" + `]*:([^\s"'` + "`" + `]+)`),
			literals: []string{"curl", "wget", "http -a", "https -a", "--auth"},
			fold:     true,
			keep:     func(v string) bool { return notPlaceholder(v) && len(v) >= 3 },
		},
		{
			// A password given as a separate argument: docker login -p …, --password …, and a
			// Kubernetes secret made from literals (--from-literal=password=…).
			kind:     "password",
			re:       regexp.MustCompile(`\bdocker\b[^\n]*?\blogin\b[^\n]*?[ \t]-p[ \t]+["']?([^\s"']+)|[ \t]--(?i:password|passwd|pass|token|secret)[ \t]+["']?([^\s"'-][^\s"']*)|--from-literal[= ][^=\s]+=["']?([^\s"']+)`),
			literals: []string{"login", "--pass", "--token", "--secret", "--from-literal"},
			fold:     true,
			keep:     func(v string) bool { return notPlaceholder(v) && len(v) >= 4 },
		},
		{
			// Other clients that take a password as an argument: sshpass -p, redis-cli -a,
			// openssl's pass:…, the netrc line "machine … login … password …".
			kind:     "password",
			re:       regexp.MustCompile(`\bsshpass\b[^\n]*?[ \t]-p[ \t]*["']?([^\s"']+)|\bredis-cli\b[^\n]*?[ \t]-a[ \t]+["']?([^\s"']+)|-pass(?:in|out)?[ \t]+["']?pass:([^\s"']+)|\bmachine[ \t]+\S+[^\n]*?\bpassword[ \t]+(\S+)`),
			literals: []string{"sshpass", "redis-cli", "pass:", "machine"},
			fold:     true,
			keep:     func(v string) bool { return notPlaceholder(v) && len(v) >= 4 },
		},
		{
			// A netrc's password on a line of its own, an npmrc's _auth.
			kind:     "password",
			re:       regexp.MustCompile(`(?m)^[ \t]*password[ \t]+(\S+)[ \t]*\r?$|(?:^|[^A-Za-z0-9])_auth[ \t]*=[ \t]*["']?([^\s"']+)`),
			literals: []string{"password", "_auth"},
			fold:     true,
			keep:     credentialLike,
		},
		{
			// A Cookie header carries a session: its values are credentials.
			kind:     "cookie",
			re:       regexp.MustCompile(`(?i:^|[^A-Za-z-])(?i:set-cookie|cookie)["']?[ \t]*:[ \t]*["']?([^\n"']{8,})`),
			literals: []string{"cookie"},
			fold:     true,
			keep: func(v string) bool {
				return strings.Contains(v, "=") && credentialLike(v[strings.IndexByte(v, '=')+1:])
			},
		},
		{
			// A registry's credential in a docker config.json: base64 of user:password.
			kind:     "docker-auth",
			re:       regexp.MustCompile(`"(?i:auth|identitytoken|registrytoken)"[ \t]*:[ \t]*"([^"\s]{8,})"`),
			literals: []string{`"auth"`, `"identitytoken"`, `"registrytoken"`},
			fold:     true,
			keep:     credentialLike,
		},
		{
			// A credential wrapped in base64 and unwrapped on the command line: whatever it
			// decodes to is what the person means to hide.
			kind:     "base64-secret",
			re:       regexp.MustCompile(`\b(?:echo|printf)[ \t]+(?:-[neE]+[ \t]+)?["']?([A-Za-z0-9+/_-]{8,}={0,2})["']?[ \t]*\|[ \t]*base64[ \t]+(?:-d|--decode|-D)|\bbase64[ \t]+(?:-d|--decode|-D)[ \t]*<<<[ \t]*["']?([A-Za-z0-9+/_-]{8,}={0,2})`),
			literals: []string{"base64"},
			fold:     true,
			keep:     notPlaceholder,
		},
		assignment("password", `passw(?:or)?d|pwd|[_-]pass`, "pass", "pwd"),
		assignment("secret", `secret`, "secret"),
		tokenLike(assignment("token", `token`, "token")),
		assignment("api-key", `(?:api|access|private|client|secret)[_-]?key`,
			"apikey", "api_key", "api-key", "accesskey", "access_key", "access-key", "privatekey", "private_key",
			"private-key", "clientkey", "client_key", "client-key", "secretkey", "secret_key", "secret-key"),
		{
			// A credential said in prose: "the admin password is Granite-Otter-4471",
			// "passphrase: correct horse". The value must look made up (a digit, mixed case or a
			// symbol), so "the password is wrong" or "the token is expired" stay readable.
			kind: "password",
			re:   regexp.MustCompile(`(?i:\b(?:password|passphrase|passwd|passcode|pin code|api key|secret key|access token|token|secret)(?:\s*[:=]\s*|\s+(?:is|was|reads|would\s+be)\s+(?:now\s+)?))["'` + "`" + `]?([^\s"'` + "`" + `,;]{4,})`),
			literals: []string{"password", "passphrase", "passwd", "passcode", "pin code", "api key", "secret key",
				"token is", "token was", "token:", "token =", "secret is", "secret was", "secret:", "secret ="},
			fold: true,
			keep: func(v string) bool {
				v = strings.TrimRight(v, ".!?)")
				return notPlaceholder(v) && len(v) >= 4 && (randomLooking(v) || strings.ContainsAny(v, "!@#$%^&*-_+="))
			},
		},
		withFits(quoted("password", passwordWords, false, func(v string) bool { return notPlaceholder(v) && !isFlag(v) && !namesASecret(v) }), saysAPassword),
		quoted("token", keyWords, true, func(v string) bool { return credentialLike(v) && !isImageDigest(v) }),
		said("password", passwordWords),
	}
}

// skKey is an sk- key: mixed case, or (DeepSeek, OpenRouter) a long run of lower-case hex and
// digits in one piece, never a slug of words ("sk-refactor-the-billing-module").
func skKey(v string) bool {
	if mixedCase(v) {
		return true
	}
	rest := strings.TrimPrefix(v, "sk-")
	return len(rest) >= 32 && !strings.Contains(rest, "-") && strings.ContainsAny(rest, "0123456789")
}

// credentialLike holds for a value that looks generated: not a placeholder, eight characters or
// more, a digit or mixed case, and not a number alone.
func credentialLike(v string) bool {
	v = strings.TrimSpace(v)
	return notPlaceholder(v) && len(v) >= 8 && randomLooking(v) && strings.Trim(v, "0123456789.:-") != ""
}

// isFlag is a command-line option ("--password-stdin"), not a value.
func isFlag(v string) bool { return strings.HasPrefix(v, "-") }

// tokenLike narrows a rule to values that look like credentials: "token" is also a word of
// ordinary logs ("fetch token: got 129", {"token": 3816}), where the value is a count or a word.
// A token value is at least 8 characters and not a plain number or a lower-case word.
func tokenLike(r rule) rule {
	r.keep = func(v string) bool {
		v = strings.TrimSpace(v)
		return notPlaceholder(v) && len(v) >= 8 && randomLooking(v) && strings.Trim(v, "0123456789") != ""
	}
	return r
}

// assignment is a rule for `NAME = value` and `"name": "value"` where NAME ends in one of the
// keywords (DB_PASSWORD, GITHUB_TOKEN, api_key, client_secret). The key name stays, the value goes.
// `:=` and `==` are code, not assignments of a literal, and do not match.
func assignment(kind, keywords string, literals ...string) rule {
	const (
		key   = `(?i:[A-Za-z0-9_.-]*(?:%s))`
		op    = `\\?["']?[ \t]*[:=][ \t]*`
		value = `(?:\\"([^"\\\n]*)\\"|"([^"\n]*)"|'([^'\n]*)'|(\{\{[^}\n]*\}\}|\$\{[^}\n]*\}|<[^<>\n]*>)|([^\s,;'"=:][^\s,;'"]*))`
	)
	pattern := `(?:^|[^A-Za-z0-9_])` + strings.Replace(key, "%s", keywords, 1) + op + value
	return rule{
		kind:     kind,
		re:       regexp.MustCompile(pattern),
		literals: literals,
		fold:     true,
		keep:     notPlaceholder,
		near:     assignsAfter,
	}
}

// assignsAfter reports whether the identifier holding position at is followed by an assignment:
// an optional (escaped) quote, blanks, then ':' or '='. It is what every assignment pattern needs
// right after its keyword, checked without a regular expression.
func assignsAfter(s string, at int) bool {
	i := at
	for i < len(s) && (isWordByte(s[i]) || s[i] == '.' || s[i] == '-') {
		i++
	}
	if i < len(s) && s[i] == '\\' {
		i++
	}
	if i < len(s) && (s[i] == '"' || s[i] == '\'') {
		i++
	}
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i < len(s) && (s[i] == ':' || s[i] == '=')
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// notPlaceholder is false for values that stand for a secret without being one: template
// references, angle-bracket hints, masks and dreamd's own marks. Anything else is redacted:
// leaking is worse than over-redacting.
func notPlaceholder(v string) bool {
	v = strings.TrimSpace(v)
	switch {
	case v == "", strings.HasPrefix(v, "[REDACTED"):
		return false
	case strings.HasPrefix(v, "${") && strings.HasSuffix(v, "}"),
		strings.HasPrefix(v, "{{") && strings.HasSuffix(v, "}}"),
		strings.HasPrefix(v, "<") && strings.HasSuffix(v, ">"),
		strings.HasPrefix(v, "%") && strings.HasSuffix(v, "%") && len(v) > 2:
		return false
	case strings.HasPrefix(v, "$") && isEnvName(v[1:]):
		return false
	case strings.Trim(v, "*xX.") == "":
		return false
	case isReference(v), isReference(strings.TrimSuffix(v, "!")) && strings.HasSuffix(v, "!"), isPlaceholderWords(v), namesASecret(v), isCode(v):
		// A TypeScript non-null assertion (`process.env.TOKEN!`, `accessToken!`) is code too.
		return false
	case len(v) <= 3 && strings.ToLower(v) == v && strings.Trim(v, "abcdefghijklmnopqrstuvwxyz") == "":
		return false // a short word of prose ("secret: its kind"), not a credential
	}
	switch strings.ToLower(v) {
	case "null", "none", "nil", "true", "false", "undefined", "redacted":
		return false
	}
	return true
}

// isCode reports a value that is an expression of a program rather than a literal: a number
// shorter than a PIN or a hex constant (`PASS = 447`, `KEY_ALL_ACCESS = 0xF003F`), a call or a
// composite literal (`peek_token(parser)`, `yaml_token_t{`, `[]byte(f.PrivateKey)`), a
// dereference, or a name that holds a secret (`clientSecret`, `c.ClientSecret`, `C.NETKIT_PASS`).
func isCode(v string) bool {
	if i := strings.IndexAny(v, "({["); i > 0 && isDottedName(strings.TrimLeft(v[:i], "&*")) {
		return true // a call, a composite literal or an index
	}
	v = strings.Trim(v, ",;{}()&*-")
	switch {
	case v == "":
		return false
	case strings.HasPrefix(v, "/") && strings.Trim(v, "abcdefghijklmnopqrstuvwxyz/._-") == "":
		return true // a path
	case strings.HasPrefix(v, "+") && len(v) > 2 && (v[1] == ' ' || isWordByte(v[1]) && !strings.ContainsAny(v, "0123456789")):
		return true // the rest of a concatenation: "PWD="+cmd.Dir
	case len(v) > 1 && v[0] == '%' && ('a' <= v[1] && v[1] <= 'z' || v[1] == '+' || v[1] == '#'):
		return true // a format verb: "%v\n"
	case isConstantName(v):
		return true // AWS_SECRET_ACCESS_KEY: where the secret is, not what
	case isWord(v):
		return true // "Authorization", "Required.", "somesecretkey": words, not generated
	case isDottedName(v) && strings.Contains(v, ".") && constantLike(v[strings.LastIndexByte(v, '.')+1:]):
		return true // C.NL80211_ATTR_KEY
	case strings.Trim(v, "0123456789") == "" && len(v) < 6:
		return true
	case len(v) > 2 && len(v) <= 18 && (strings.HasPrefix(v, "0x") || strings.HasPrefix(v, "0X")) && strings.Trim(v[2:], "0123456789abcdefABCDEF") == "":
		return true // a constant; 64 hex digits after 0x are a private key
	case strings.HasPrefix(v, "[]"), strings.HasPrefix(v, "&") && isDottedName(strings.TrimLeft(v[1:], "&")):
		return true
	case strings.HasPrefix(v, "*") && isDottedName(v[1:]):
		return true
	}
	if !isDottedName(v) || strings.ContainsAny(v, "0123456789") {
		return false
	}
	// An identifier without digits: code when it is dotted, or its words name a secret.
	return strings.Contains(v, ".") && mixedCaseOrUpper(v) || namesASecretInCamelCase(v)
}

// isWord is a word of prose, capitalised ("Authorization", "Required."), or one that says it
// stands for a secret ("somesecretkey"): letters only, at most the first one a capital. A plain
// word ("changeme") can be a password and is not one of them.
func isWord(v string) bool {
	v = strings.TrimSuffix(v, ".")
	if len(v) < 2 {
		return false
	}
	if 'a' <= v[0] && v[0] <= 'z' && !strings.Contains(v, "secret") && !strings.Contains(v, "token") && !strings.Contains(v, "password") {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !('a' <= c && c <= 'z' || i == 0 && 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

// constantLike is a constant's name in capitals and underscores, digits allowed after the first
// letter (NL80211_ATTR_KEY).
func constantLike(v string) bool {
	return len(v) > 1 && 'A' <= v[0] && v[0] <= 'Z' && strings.Contains(v, "_") && strings.ToUpper(v) == v && isEnvName(v)
}

// mixedCaseOrUpper holds for the dotted names of code (c.ClientSecret, C.NETKIT_PASS), not for a
// word after a full stop.
func mixedCaseOrUpper(v string) bool {
	last := v[strings.LastIndexByte(v, '.')+1:]
	return mixedCase(last) || strings.ToUpper(last) == last
}

// namesASecretInCamelCase is a camelCase name one of whose words is a word for a secret:
// clientSecret, authToken, progressToken, privateKey.
func namesASecretInCamelCase(v string) bool {
	if !mixedCase(v) {
		return false
	}
	for _, w := range []string{"Secret", "Token", "Password", "Passwd", "Key", "Pass", "Auth", "Credential"} {
		if i := strings.Index(v, w); i > 0 && (i+len(w) == len(v) || v[i+len(w)] >= 'A' && v[i+len(w)] <= 'Z') {
			return true
		}
	}
	return false
}

// codeRoots are names a reference to a secret starts from: an environment, a config object, a
// secret manager. A value like `os.getenv(`, `process.env.GITHUB_TOKEN`, `settings.SECRET_KEY`
// or `vault.read(` says where the secret is, not what it is.
var codeRoots = []string{"env", "environ", "getenv", "os", "process", "config", "cfg", "conf", "settings",
	"secrets", "vault", "self", "this", "options", "opts", "params", "args", "creds", "credentials", "keyring", "system"}

// isReference reports whether a value is code that refers to a secret rather than the secret: a
// call or an index (`os.getenv(`, `config[`), or a dotted name from one of codeRoots.
func isReference(v string) bool {
	if i := strings.IndexAny(v, "(["); i > 0 {
		// A call or an index: `os.getenv("X")`, `config["db"]`, `getenv("X")`.
		name := v[:i]
		return isDottedName(name) && (strings.Contains(name, ".") || isCodeRoot(strings.ToLower(name)))
	}
	if !isDottedName(v) || !strings.Contains(v, ".") {
		return false
	}
	for _, seg := range strings.Split(strings.ToLower(v), ".") {
		if isCodeRoot(seg) {
			return true
		}
	}
	return false
}

// namesASecret reports a value that is the name of a variable holding a secret, not the secret:
// `posthog_project_api_key`, `accessToken!` (handled by the caller), `github_token`. Lower-case
// words joined by underscores, no digit, one of them a word for a secret.
func namesASecret(v string) bool {
	if len(v) > 64 || !strings.Contains(v, "_") || strings.ToLower(v) != v || strings.ContainsAny(v, "0123456789") || !isEnvName(v) {
		return false
	}
	for _, w := range strings.Split(v, "_") {
		switch w {
		case "key", "apikey", "token", "secret", "password", "passwd", "pwd", "credential", "credentials":
			return true
		}
	}
	return false
}

func isCodeRoot(name string) bool {
	for _, root := range codeRoots {
		if name == root || strings.HasPrefix(name, root+"_") {
			return true
		}
	}
	return false
}

func isDottedName(s string) bool {
	if s == "" {
		return false
	}
	for _, seg := range strings.Split(s, ".") {
		if seg == "" || seg[0] >= '0' && seg[0] <= '9' || !isEnvName(seg) {
			return false
		}
	}
	return true
}

// isPlaceholderWords reports values written for a person to fill in: "your_api_key_here",
// "YOUR-TOKEN", "<…>"-less hints, "sk-...abcd" elisions.
func isPlaceholderWords(v string) bool {
	l := strings.ToLower(v)
	switch {
	case strings.HasPrefix(l, "your") || strings.HasSuffix(l, "_here") || strings.HasSuffix(l, "-here"):
		return true
	case strings.Contains(l, "...") || strings.Contains(l, "…"):
		return true
	case strings.Contains(l, "placeholder") || strings.Contains(l, "replace_me") || strings.Contains(l, "replace-me"):
		return true
	}
	return wordsOfALanguage(v)
}

// wordsOfALanguage reports a hint written in words of a language other than English
// ("votre-clé-va-ici"): three or more lower-case words joined by hyphens, one with a letter
// outside ASCII. Generated secrets are ASCII; a diceware passphrase of ASCII words stays a secret.
func wordsOfALanguage(v string) bool {
	words := strings.Split(v, "-")
	if len(words) < 3 || !strings.ContainsFunc(v, func(r rune) bool { return r > unicode.MaxASCII }) {
		return false
	}
	for _, w := range words {
		if w == "" || strings.ContainsFunc(w, func(r rune) bool { return !unicode.IsLower(r) }) {
			return false
		}
	}
	return true
}

func isEnvName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// mixedCase holds for random-looking base62/base64 text, which has upper and lower case letters;
// git SHAs, hex digests and lower-case slugs do not.
func mixedCase(s string) bool {
	var upper, lower bool
	for i := 0; i < len(s); i++ {
		c := s[i]
		upper = upper || c >= 'A' && c <= 'Z'
		lower = lower || c >= 'a' && c <= 'z'
	}
	return upper && lower
}

// randomLooking tells tokens from words: a digit or mixed case.
func randomLooking(s string) bool {
	return mixedCase(s) || strings.ContainsAny(s, "0123456789")
}

var (
	pemBegin = lazyre.New(`-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----`)
	pemEnd   = lazyre.New(`-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----`)
	// pemLines is what follows a BEGIN line with no END: the lines that look like key material
	// (also with JSON-escaped newlines).
	pemLines = lazyre.New(`^(?:[ \t]*(?:\r?\n|\\n)[ \t]*[A-Za-z0-9+/=:,.-]+)*`)
)

// findPEM returns whole private key blocks, BEGIN to END. A block cut off before its END line (a
// truncated transcript) still loses every line of key material. One scan: once no END follows a
// BEGIN, none follows the later ones either.
func findPEM(s string) [][]int {
	var spans [][]int
	endSeen := true
	for off := 0; off < len(s); {
		loc := pemBegin.FindStringIndex(s[off:])
		if loc == nil {
			break
		}
		start, end := off+loc[0], off+loc[1]
		if e := endAfter(s, end, &endSeen); e > 0 {
			end = e
		} else {
			end += len(pemLines.FindString(s[end:]))
		}
		spans = append(spans, []int{start, end})
		off = end
	}
	return spans
}

// endAfter returns the end of the first END line at or after off, or 0; it clears *more when
// there is none, so the caller stops looking.
func endAfter(s string, off int, more *bool) int {
	if !*more {
		return 0
	}
	loc := pemEnd.FindStringIndex(s[off:])
	if loc == nil {
		*more = false
		return 0
	}
	return off + loc[1]
}
