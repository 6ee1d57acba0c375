package phases

import (
	"bytes"
	"cmp"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/dreamd/dreamd/internal/safefile"
	"github.com/google/renameio/v2"
)

// planKeyFile holds the secret that signs plans, in the state directory: a plan file that was
// edited outside dreamd (its changes, its store, its cursors) no longer matches its MAC.
const planKeyFile = "plan.key"

// ErrTampered marks a plan file whose MAC does not match: it was edited outside dreamd, or made
// under another state directory.
var ErrTampered = errors.New("plan file does not match its signature")

// planKey returns the state directory's plan key, creating it on first use when create is set.
func planKey(stateDir string, create bool) ([]byte, error) {
	path := filepath.Join(stateDir, planKeyFile)
	key, err := os.ReadFile(path)
	if err == nil && len(key) == 32 {
		return key, nil
	}
	if !create || err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: no plan key in %s (plans are applied with the state directory that made them)", ErrTampered, stateDir)
	}
	key = make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(stateDir, 0o700); err != nil {
		return nil, err
	}
	return key, renameio.WriteFile(path, key, 0o600)
}

// mac signs a plan file: an HMAC-SHA256 of its JSON encoding with the MAC field empty, so it
// holds however the file is indented.
func (f *PlanFile) mac(key []byte) string {
	c := *f
	c.MAC = ""
	b, _ := json.Marshal(&c)
	h := hmac.New(sha256.New, key)
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}

// WritePlan signs a plan with the key of stateDir and saves it as JSON, atomically. The folder
// must exist: a plan is not scattered into folders made up on the way.
func WritePlan(path string, p *Plan, stateDir string) error {
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || !fi.IsDir() {
		return fmt.Errorf("cannot write the plan to %s: the folder %s does not exist", path, filepath.Dir(path))
	}
	key, err := planKey(stateDir, true)
	if err != nil {
		return err
	}
	f := p.File()
	f.MAC = f.mac(key)
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	return renameio.WriteFile(path, append(b, '\n'), 0o600)
}

// MaxPlanFile bounds a saved plan as read: a plan holds the store's changed files (each at most
// store.MaxFile) twice, and a file of any size given as a plan must not exhaust the memory.
const MaxPlanFile = 64 << 20

// ReadPlan loads a saved plan and checks its format and its signature with the key of stateDir
// before anything in it is used; an edited plan is refused with ErrTampered, a plan of another
// format with an error naming it.
func ReadPlan(path, stateDir string) (*Plan, error) {
	b, err := safefile.ReadFile(path, MaxPlanFile)
	if _, ok := errors.AsType[*safefile.TooLargeError](err); ok {
		return nil, fmt.Errorf("%s is not a dreamd plan: larger than %s, the most a plan may be", path, safefile.Size(MaxPlanFile))
	}
	if err != nil {
		return nil, err
	}
	var head struct {
		Version *int `json:"version"`
	}
	if err := json.Unmarshal(b, &head); err != nil || head.Version == nil {
		return nil, fmt.Errorf("%s is not a dreamd plan: %v", path, cmp.Or(err, errors.New("it has no version")))
	}
	if *head.Version != PlanFileVersion {
		return nil, fmt.Errorf("%s is a plan of format %d, and this dreamd reads format %d: make the plan again with this dreamd (dreamd plan)", path, *head.Version, PlanFileVersion)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var f PlanFile
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s is not a dreamd plan: %w", path, err)
	}
	key, err := planKey(stateDir, false)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if !hmac.Equal([]byte(f.mac(key)), []byte(f.MAC)) {
		return nil, fmt.Errorf("%w: %s was changed after dreamd wrote it; make a new plan (dreamd plan)", ErrTampered, path)
	}
	if f.Store == "" || f.State == "" || f.RunID == "" {
		return nil, errors.New(path + " is not a dreamd plan: store, state or run id missing")
	}
	return f.Plan(), nil
}

// signature is the MAC of the plan p applies, with the key of the state directory that holds
// p's store state (as a saved plan is signed); "" when that directory has no key.
func signature(p *Plan) string {
	key, err := planKey(filepath.Dir(filepath.Dir(p.State)), false)
	if err != nil {
		return ""
	}
	return p.File().mac(key)
}
