package redact

import (
	"regexp"
	"strings"
	"unicode"
)

// passwordWords are the words for a password or a secret in the languages people write to their
// agents in; what follows them in quotes is the secret itself ("明文密码 `…`", "la contraseña es
// `…`"). Words with a capital outside ASCII are listed in both cases: the prefilter folds ASCII only.
var passwordWords = []string{
	"password", "passwd", "passphrase", "passcode", "secret",
	"密码", "密碼", "口令", "密钥", "秘钥", "私钥", "密鑰", "金鑰",
	"パスワード", "暗証番号", "秘密鍵", "シークレット", "合言葉",
	"비밀번호", "패스워드", "암호", "시크릿", "비밀 키",
	"contraseña", "contrasena", "clave secreta", "secreto",
	"senha", "segredo", "palavra-passe",
	"mot de passe", "mdp",
	"passwort", "kennwort", "geheimnis", "geheimschlüssel",
	"wachtwoord", "geheim",
	"пароль", "Пароль", "ПАРОЛЬ", "секрет", "Секрет",
	"mật khẩu", "Mật khẩu", "MẬT KHẨU", "bí mật", "Bí mật",
	"parola d'ordine", "segreto",
	"şifre", "Şifre", "parola",
	"hasło", "Hasło",
	"kata sandi",
	"كلمة المرور", "كلمة السر", "पासवर्ड", "रहस्य", "รหัสผ่าน", "סיסמה", "رمز عبور", "heslo", "lösenord",
	"passord", "adgangskode", "salasana", "κωδικός", "jelszó", "parolă", "пароль доступу",
}

// keyWords are the words for a key or a token. They are also the words for a map's key or a
// parser's token, so the quoted value must look generated.
var keyWords = []string{
	"token", "api key", "api-key", "apikey", "access key", "key",
	"令牌", "凭证", "憑證", "钥匙",
	"トークン", "キー",
	"토큰", "키",
	"clave", "chave", "clé", "jeton", "schlüssel", "sleutel", "chiave", "anahtar", "klucz",
	"ключ", "Ключ", "токен", "Токен", "khóa", "Khóa", "mã thông báo",
}

// quotes are the pairs a value is quoted with, in the languages above.
var quotes = [][2]string{
	{"`", "`"}, {`"`, `"`}, {"'", "'"}, {"“", "”"}, {"‘", "’"}, {"「", "」"}, {"『", "』"},
	{"«", "»"}, {"„", "“"}, {"‹", "›"}, {"《", "》"},
}

// wordsPattern is an alternation of words, case-insensitive. With inflect, a word of another
// language than English may take an ending of up to three letters (Passworte, lösenordet).
func wordsPattern(words []string, inflect bool) string {
	alt := make([]string, len(words))
	for i, w := range words {
		alt[i] = regexp.QuoteMeta(w)
		if inflect && !english[w] {
			alt[i] += `\pL{0,3}`
		}
	}
	return `(?i:` + strings.Join(alt, "|") + `)`
}

// english are the words of the lists that take no ending: "secrets" and "passwords" are the
// plural, not a word that introduces a value.
var english = map[string]bool{"password": true, "passwd": true, "passphrase": true, "passcode": true, "secret": true}

// literalsOf are the words as the prefilter sees them (ASCII lower-cased).
func literalsOf(words []string) []string {
	out := make([]string, 0, len(words))
	for _, w := range words {
		out = append(out, asciiLower(w))
	}
	return out
}

// quoted is a rule for one of words followed by a quoted value: the value goes. A word for a
// password may be some words away from its value ("is", "es", "ist", "是", "は", "for the
// camera"); a word for a key or a token (near) must be next to it or joined by "is" or a colon,
// and its value must hold no space. keep says which values count.
func quoted(kind string, words []string, near bool, keep func(string) bool) rule {
	var open strings.Builder
	var values, straight []string
	for _, q := range quotes {
		open.WriteString(q[0])
		v := regexp.QuoteMeta(q[0]) + `([^\s` + regexp.QuoteMeta(q[1]) + `][^\n` + regexp.QuoteMeta(q[1]) + `]{1,126}?[^\s` + regexp.QuoteMeta(q[1]) + `])` + regexp.QuoteMeta(q[1])
		if q[0] == `"` || q[0] == "'" {
			// A straight quote right after the word closes a string of code ("Password", Method, …):
			// a value in straight quotes follows a blank or a colon.
			straight = append(straight, v)
			continue
		}
		// French puts a (thin) space inside its guillemets: « … ».
		v = regexp.QuoteMeta(q[0]) + `[ \x{a0}\x{202f}]?` + strings.TrimPrefix(v, regexp.QuoteMeta(q[0]))
		v = strings.TrimSuffix(v, regexp.QuoteMeta(q[1])) + `[ \x{a0}\x{202f}]?` + regexp.QuoteMeta(q[1])
		values = append(values, v)
	}
	closing := "”’」』»›》"
	// The word ends where a letter does not follow it ("keyboard", "passwords" are other words).
	// Code between the word and the quote (a call, an index, a block) is not prose saying a value.
	// A comma or a semicolon ends the clause the word is in ("a user and password, `docker login`").
	stop := regexp.QuoteMeta(open.String()+closing) + `()\[\]{};<>,`
	gap := `(?:[^A-Za-z\n` + stop + `][^\n` + stop + `]{0,40}?)?`
	if near {
		gap = `(?:[ \t]*(?:[:：=]|(?i:is|was|es|era|ist|lautet|est|é|là))?[ \t]*|[ \t]*(?:是|为|為|は|が|는|은|：)[ \t]*)`
		inner := keep
		keep = func(v string) bool { return inner(v) && !strings.ContainsAny(v, " \t") }
	}
	pattern := `(?:^|[^A-Za-z0-9_])` + wordsPattern(words, !near) + gap + `(?:` + strings.Join(values, "|") + `|[ \t:：=](?:` + strings.Join(straight, "|") + `))`
	return rule{
		kind:     kind,
		re:       regexp.MustCompile(pattern),
		literals: literalsOf(words),
		fold:     true,
		keep: func(v string) bool {
			v = strings.TrimSpace(v)
			return keep(v) && !pathLike(v) && !isConstantName(v) && !strings.Contains(v, " -") && strings.ContainsFunc(v, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) })
		},
	}
}

// connectors join a word for a password to its value: "is" in each language, a colon, "是", "は".
const connectors = `(?:[ \t]*[:：=][ \t]*|[ \t]+(?i:is|was|es|era|é|est|était|ist|lautet|war|luidt|là|è|jest|adalah|—|-|–)[ \t]+(?:[:：][ \t]*)?|[ \t]*(?:是|为|為|は|が|는|은|이|：)[ \t]*)`

// said is a rule for a password said without quotes in any of the languages ("la contraseña de
// la cámara es Xk9-…", "密码是abc123"): the value must look made up, as in English.
func said(kind string, words []string) rule {
	pattern := wordsPattern(words, false) + `(?:[ \t]+[^\s:：=]{1,20}){0,3}?` + connectors + `([A-Za-z0-9!@#$%^&*()_+=\-.~/\\|<>?\[\]{}]{6,128})`
	return rule{
		kind:     kind,
		re:       regexp.MustCompile(pattern),
		literals: literalsOf(words),
		fold:     true,
		keep: func(v string) bool {
			v = strings.TrimRight(v, ".!?)")
			return notPlaceholder(v) && len(v) >= 6 && !pathLike(v) && !isConstantName(v) &&
				(randomLooking(v) || strings.ContainsAny(v, "!@#$%^&*_+=")) && strings.Trim(v, "0123456789.") != ""
		},
	}
}

// pathLike is a file path, a file name or a URL, not a credential: "config/database.yml",
// "./secrets.env", ".env".
func pathLike(v string) bool {
	if dot := strings.LastIndexByte(v, '.'); dot >= 0 && len(v)-dot-1 >= 2 && len(v)-dot-1 <= 5 &&
		strings.Trim(v[dot+1:], "abcdefghijklmnopqrstuvwxyz") == "" && isDottedName(strings.ReplaceAll(strings.TrimPrefix(v, "."), "-", "_")) &&
		!(mixedCase(v) && strings.ContainsAny(v, "0123456789")) {
		return true
	}
	switch {
	case strings.Contains(v, "://"), strings.HasPrefix(v, "/"), strings.HasPrefix(v, "./"), strings.HasPrefix(v, "~/"), strings.HasPrefix(v, "../"):
		return true
	case strings.Contains(v, "/") && !strings.ContainsAny(v, " +=!@#$%^&*"):
		// Words between slashes ("secret/data/app", "config/database.yml"); a key in base64
		// has slashes too, but with mixed case and digits.
		return !(mixedCase(v) && strings.ContainsAny(v, "0123456789"))
	}
	return false
}

// isConstantName is the name of a variable in capitals ("SECRET_KEY_BASE"), which says where a
// secret is kept, not what it is.
func isConstantName(v string) bool {
	return strings.Contains(v, "_") && isEnvName(v) && strings.ToUpper(v) == v && strings.Trim(v, "0123456789_") != "" &&
		!strings.ContainsAny(v, "0123456789")
}

// withFits returns r with fits set.
func withFits(r rule, fits func(s string, m []int) bool) rule {
	r.fits = fits
	return r
}

// passwordWordAt finds the word for a password a quoted match starts with (after the one
// character before it that the pattern takes).
var passwordWordAt = regexp.MustCompile(`^(?:[^A-Za-z0-9_])??` + wordsPattern(passwordWords, true))

// saysAPassword reports whether a quoted match is a password said, not a word for a password
// that names something else or only stands near a name of code:
//   - "getent passwd 'devcontainers'": passwd is the database of users; the value is a user name.
//   - "密码相关的函数是 `listAISuitesInRegistry`": a function's name some words after the word is
//     what the sentence talks about; "明文密码 `…`" and "密码是 `…`" put the value right after it.
func saysAPassword(s string, m []int) bool {
	start, end := secretSpan(m)
	prefix := s[m[0]:start]
	word := passwordWordAt.FindString(prefix)
	if word == "" {
		return true
	}
	if strings.HasSuffix(strings.ToLower(word), "passwd") && namesTheUserDatabase(s[:m[0]+len(word)-len("passwd")]) {
		return false
	}
	return directlyAfter(prefix[len(word):]) || !codeIdentifier(strings.TrimSpace(s[start:end]))
}

// namesTheUserDatabase reports whether the text before a "passwd" makes it the database of
// users, whose entries are names: "getent passwd", "sudo passwd" (the command takes a user).
func namesTheUserDatabase(before string) bool {
	before = strings.TrimRight(before, " \t")
	for _, cmd := range []string{"getent", "sudo"} {
		if strings.HasSuffix(before, cmd) && (len(before) == len(cmd) || !isWordByte(before[len(before)-len(cmd)-1])) {
			return true
		}
	}
	return false
}

// directWords join a word for a password right to its value ("密码是 `…`", "password is '…'").
var directWords = map[string]bool{
	"": true, "is": true, "was": true, "es": true, "era": true, "ist": true, "lautet": true, "est": true, "é": true, "là": true,
	"是": true, "为": true, "為": true, "は": true, "が": true, "는": true, "은": true, "이": true,
}

// directlyAfter reports whether gap, the text between a word for a password and its quoted
// value (the opening quote included), is nothing but blanks, a colon or a connector.
func directlyAfter(gap string) bool {
	gap = strings.TrimRight(gap, " \t\u00a0\u202f")
	for _, q := range quotes {
		if strings.HasSuffix(gap, q[0]) {
			gap = strings.TrimSuffix(gap, q[0])
			break
		}
	}
	gap = strings.Trim(gap, " \t\u00a0\u202f:：=")
	return directWords[strings.ToLower(gap)]
}

// codeIdentifier is the name of a function or a variable: ASCII letters, digits and
// underscores, starting with a letter, in camelCase ("listAISuitesInRegistry") or snake_case
// ("list_ai_suites").
func codeIdentifier(v string) bool {
	if v == "" || !('a' <= v[0] && v[0] <= 'z' || 'A' <= v[0] && v[0] <= 'Z') {
		return false
	}
	camel := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !isWordByte(c) {
			return false
		}
		if i > 0 && 'A' <= c && c <= 'Z' && 'a' <= v[i-1] && v[i-1] <= 'z' {
			camel = true
		}
	}
	snake := strings.Contains(strings.Trim(v, "_"), "_") && strings.ToUpper(v) != v
	return camel || snake
}

// isImageDigest is a container image pinned by digest ("nginx@sha256:…",
// "ghcr.io/org/app:1.2@sha256:…"): the digest is public, it names the image's content.
func isImageDigest(v string) bool {
	name, digest, ok := strings.Cut(v, "@")
	if !ok || name == "" {
		return false
	}
	algo, hex, ok := strings.Cut(digest, ":")
	if !ok || (algo != "sha256" && algo != "sha512") || len(hex) < 32 || strings.Trim(hex, "0123456789abcdef") != "" {
		return false
	}
	return strings.Trim(name, "abcdefghijklmnopqrstuvwxyz0123456789._-/:") == ""
}
