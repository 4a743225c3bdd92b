package document

// Preparation of downloadable files. The real service renders the merged
// PDF asynchronously after creation, after each signature and after
// completion, and answers 409 until it is done; the sandbox does the same
// with a scheduler job per object (world configuration
// FilePreparationDelay). The job composes the files and keeps the
// composition as a recipe; the bytes are rendered when a download asks for
// them (internal/derived keeps recent renderings), so what a download gets
// is what rendering at preparation time gave, at the cost of no stored
// file per object. While a new version is being prepared, all three
// download forms answer 409 (the specification: "409 while files are being
// prepared"): the previous version is not served, although file URLs handed
// out earlier keep serving the version they were issued for until they
// expire, like the real service's pre-signed URLs.

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/derived"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// JobPrepare renders an object's files (subject: the object id).
const JobPrepare = "files.prepare"

// filesJobArgs are the arguments of a preparation job.
type filesJobArgs struct {
	Kind    string `json:"kind"`
	Version int    `json:"version"`
}

func registerPrepare(r *api.Registry) { r.RegisterJob(JobPrepare, runFilesPrepare) }

// ScheduleFiles (re)prepares the downloadable files of an object after the
// world's file preparation delay; until then downloads answer 409. A
// pending preparation is replaced: the new job renders the latest state.
// Objects whose files are gone stay gone.
func ScheduleFiles(tx *state.Txn, kind, id string) error {
	fs := fileSetToChange(tx, kind, id)
	if fs.Gone {
		return nil
	}
	fs.Version++
	fs.Ready = false
	fs.SetFailure("")
	if err := state.PutFileSet(tx, fs); err != nil {
		return err
	}
	if err := state.CancelJobs(tx, id, JobPrepare); err != nil {
		return err
	}
	delay := state.GetConfig(tx).FilePreparationDelay.D()
	_, err := state.Schedule(tx, JobPrepare, id, delay, filesJobArgs{Kind: kind, Version: fs.Version})
	return err
}

// fileSetToChange is a copy of the object's file set to modify and Put, or
// a new one when no preparation was ever scheduled.
func fileSetToChange(tx *state.Txn, kind, id string) *model.FileSet {
	fs, err := state.GetFileSet(tx, kind, id)
	if err != nil {
		return state.NewFileSet(kind, id)
	}
	return state.Clone(fs)
}

// GoneFiles makes the object's downloads answer 410 (canceled requests):
// its pending preparation is dropped and its prepared files deleted; file
// URLs handed out earlier answer 410 too.
func GoneFiles(tx *state.Txn, kind, id string) error {
	fs := fileSetToChange(tx, kind, id)
	if err := state.CancelJobs(tx, id, JobPrepare); err != nil {
		return err
	}
	urls, err := state.All[model.FileURL](tx, state.TableFileURLs, state.IndexObject, id)
	if err != nil {
		return err
	}
	for _, u := range urls {
		// The URLs stay (they answer 410); what they served goes.
		if err := state.DeleteBlob(tx, u.BlobID); err != nil {
			return err
		}
	}
	for _, b := range []string{tx.PDFBlob(fs), fs.ZIPBlobID()} {
		if err := state.DeleteBlob(tx, b); err != nil {
			return err
		}
	}
	fs.Gone, fs.Ready = true, false
	fs.SetFiles("", "", fs.Pages())
	fs.PDFSeq = 0
	return state.PutFileSet(tx, fs)
}

// runFilesPrepare is the preparation job: compose, keep the composition as
// a recipe, mark ready. A job for an outdated version (a newer one was
// scheduled) or a gone object does nothing. A composition that fails is
// recorded on the file set (downloads keep answering 409 and say why); it
// does not fail the job. The composition time is the preparation instant.
func runFilesPrepare(s *api.Host, w *world.World, tx *state.Txn, job *model.Job) error {
	var a filesJobArgs
	if err := json.Unmarshal(job.Args, &a); err != nil {
		return fmt.Errorf("files.prepare: arguments: %w", err)
	}
	cur, err := state.GetFileSet(tx, a.Kind, job.Subject)
	if err != nil || cur.Gone || cur.Version != a.Version {
		return nil
	}
	fs := state.Clone(cur)
	comp, refs, perr := compose(s, tx, a.Kind, job.Subject)
	var recipe []byte
	var out pdf.Rendered
	if perr == nil {
		recipe, perr = derived.EncodeRecipe(comp, refs)
		if errors.Is(perr, derived.ErrNotKeepable) {
			out, perr = pdf.Render(comp) // kept as files instead
		}
	}
	if perr != nil {
		w.Logger().Warn("file preparation failed", "kind", a.Kind, "id", job.Subject, "err", perr)
		fs.SetFailure(perr.Error())
		return state.PutFileSet(tx, fs)
	}
	var pdfID, zipID string
	var pdfSeq uint64
	if recipe == nil {
		if pdfID, err = state.PutBlob(tx, out.PDF); err != nil {
			return err
		}
		if zipID, err = state.PutBlob(tx, out.ZIP); err != nil {
			return err
		}
	} else {
		// The number of the id the PDF is stored under if a file URL
		// needs it (fileURLBlob), and one for the ZIP, which no file URL
		// serves: taken now, as storing both files here did, so that every
		// later id of the world stays what it always was.
		pdfSeq = tx.Seq()
		_ = tx.Seq()
	}
	if err := sweepFileURLs(tx, job.Subject, nil); err != nil {
		return err
	}
	if err := releaseBlobs(tx, tx.PDFBlob(fs), fs.ZIPBlobID()); err != nil {
		return err
	}
	fs.Recipe, fs.PDFSeq = recipe, pdfSeq
	fs.SetFiles(pdfID, zipID, out.Pages)
	fs.Name = pdf.SafeName(comp.Title, "", a.Kind+"-"+job.Subject)
	if fs.Name == comp.Title {
		fs.Name = comp.Title // the owner's string, not a copy
	}
	fs.SetFailure("")
	fs.Ready, fs.PreparedAt = true, tx.Unix()
	return state.PutFileSet(tx, fs)
}

// compose asks an object's owner for its composition as of now.
func compose(s *api.Host, tx *state.Txn, kind, id string) (pdf.Composition, []string, error) {
	owner, ok := s.Reg().FileOwners[kind]
	if !ok || owner.Compose == nil {
		return pdf.Composition{}, nil, fmt.Errorf("no file owner for %q", kind)
	}
	comp, refs, err := owner.Compose(tx, id)
	if err != nil {
		return pdf.Composition{}, nil, err
	}
	if comp.At.IsZero() {
		comp.At = tx.Now()
	}
	return comp, refs, nil
}

// preparedPDF and preparedZIP are a prepared file set's files: rendered
// from its recipe (or found among recent renderings), or read from the
// files rendered at preparation time. A rendering that fails answers 409,
// as a failed preparation does.
func preparedPDF(tx *state.Txn, fs *model.FileSet) ([]byte, error) {
	return preparedFile(tx, fs, false)
}

func preparedZIP(tx *state.Txn, fs *model.FileSet) ([]byte, error) {
	return preparedFile(tx, fs, true)
}

func preparedFile(tx *state.Txn, fs *model.FileSet, zip bool) ([]byte, error) {
	if fs.Recipe == nil {
		blob := fs.PDFBlobID()
		if zip {
			blob = fs.ZIPBlobID()
		}
		data, err := state.GetBlob(tx, blob)
		if err != nil {
			return nil, filesNotReady()
		}
		return data, nil
	}
	out, err := derived.Merged(fs.Recipe, blobStore{tx})
	if err != nil {
		return nil, filesNotReady()
	}
	if zip {
		return out.ZIP, nil
	}
	return out.PDF, nil
}

// blobStore resolves a recipe's references: blob ids of the world.
type blobStore struct{ tx *state.Txn }

func (b blobStore) Sum(id string) ([sha256.Size]byte, error) { return state.BlobSum(b.tx, id) }
func (b blobStore) Bytes(id string) ([]byte, error)          { return state.GetBlob(b.tx, id) }

// releaseBlobs deletes prepared files that no file URL still serves.
func releaseBlobs(tx *state.Txn, ids ...string) error {
	for _, id := range ids {
		if id == "" || state.BlobInUse(tx, id) {
			continue
		}
		if err := state.DeleteBlob(tx, id); err != nil {
			return err
		}
	}
	return nil
}

// sweepFileURLs deletes the files that only expired file URLs of the
// object served, except those in keep (the current files). The expired URLs
// themselves stay, so that they keep answering 410.
func sweepFileURLs(tx *state.Txn, objectID string, keep map[string]bool) error {
	urls, err := state.All[model.FileURL](tx, state.TableFileURLs, state.IndexObject, objectID)
	if err != nil {
		return err
	}
	for _, u := range urls {
		if u.ExpiresAt > tx.Unix() || keep[u.BlobID] || state.BlobInUse(tx, u.BlobID) {
			continue
		}
		if err := state.DeleteBlob(tx, u.BlobID); err != nil {
			return err
		}
	}
	return nil
}

// preparedFiles checks that the caller may download an object's files and
// that they are prepared: 404/410 from the owner, 410 once the files are
// gone, 409 while they are being prepared.
func preparedFiles(c *api.Call, tx *state.Txn, kind, id string) (*model.FileSet, error) {
	owner, ok := c.Host.Reg().FileOwners[kind]
	if !ok || owner.Visible == nil {
		return nil, apierr.NotFoundf(apierr.MsgNotFound)
	}
	if err := owner.Visible(c, tx, id); err != nil {
		return nil, err
	}
	fs, err := state.GetFileSet(tx, kind, id)
	switch {
	case err != nil:
		return nil, filesNotReady()
	case fs.Gone:
		return nil, apierr.Gone()
	case !fs.Ready:
		return nil, filesNotReady()
	}
	return fs, nil
}

func filesNotReady() *apierr.Error {
	return &apierr.Error{Name: apierr.Conflict, Msg: apierr.MsgFilesNotReady}
}
