package sandbox

// Preparation of downloadable files. The real service renders the merged
// PDF asynchronously after creation, after each signature and after
// completion, and answers 409 until it is done; the sandbox does the same
// with a scheduler job per object (world configuration
// FilePreparationDelay). While a new version is being prepared, all three
// download forms answer 409 (the specification: "409 while files are being
// prepared"): the previous version is not served, although file URLs handed
// out earlier keep serving the version they were issued for until they
// expire, like the real service's pre-signed URLs.

import (
	"encoding/json"
	"fmt"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/files"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// fileOwner is how the documents subsystem reaches the objects that own
// files.
type fileOwner struct {
	// visible returns nil when the caller may download the object's files,
	// else the API error (404 not_found, 410 deleted, 409 while the object
	// itself is not ready).
	visible func(c *api.Call, tx *state.Txn, id string) error
	// compose describes the object's downloadable PDF as of now.
	compose func(tx *state.Txn, id string) (files.Composition, error)
}

// jobFilesPrepare renders an object's files (subject: the object id).
const jobFilesPrepare = "files.prepare"

// filesJobArgs are the arguments of a preparation job.
type filesJobArgs struct {
	Kind    string `json:"kind"`
	Version int    `json:"version"`
}

func registerFilesPrepare(r *api.Registry) { r.RegisterJob(jobFilesPrepare, runFilesPrepare) }

// scheduleFiles (re)prepares the downloadable files of an object after the
// world's file preparation delay; until then downloads answer 409. A
// pending preparation is replaced: the new job renders the latest state.
// Objects whose files are gone stay gone.
func scheduleFiles(tx *state.Txn, kind, id string) error {
	fs := fileSetToChange(tx, kind, id)
	if fs.Gone {
		return nil
	}
	fs.Version++
	fs.Ready = false
	fs.Error = ""
	if err := state.Put(tx, state.TableFileSets, fs); err != nil {
		return err
	}
	if err := state.CancelJobs(tx, id, jobFilesPrepare); err != nil {
		return err
	}
	delay := state.GetConfig(tx).FilePreparationDelay.D()
	_, err := state.Schedule(tx, jobFilesPrepare, id, delay, filesJobArgs{Kind: kind, Version: fs.Version})
	return err
}

// fileSetToChange is a copy of the object's file set to modify and Put, or
// a new one when no preparation was ever scheduled.
func fileSetToChange(tx *state.Txn, kind, id string) *state.FileSet {
	fs, err := state.GetFileSet(tx, kind, id)
	if err != nil {
		return &state.FileSet{ID: state.FileSetID(kind, id), Kind: kind, ObjectID: id}
	}
	return state.Clone(fs)
}

// goneFiles makes the object's downloads answer 410 (canceled requests):
// its pending preparation is dropped and its prepared files deleted; file
// URLs handed out earlier answer 410 too.
func goneFiles(tx *state.Txn, kind, id string) error {
	fs := fileSetToChange(tx, kind, id)
	if err := state.CancelJobs(tx, id, jobFilesPrepare); err != nil {
		return err
	}
	urls, err := state.All[state.FileURL](tx, state.TableFileURLs, state.IndexObject, id)
	if err != nil {
		return err
	}
	for _, u := range urls {
		// The URLs stay (they answer 410); what they served goes.
		if err := state.DeleteBlob(tx, u.BlobID); err != nil {
			return err
		}
	}
	for _, b := range []string{fs.PDFBlobID, fs.ZIPBlobID} {
		if err := state.DeleteBlob(tx, b); err != nil {
			return err
		}
	}
	fs.Gone, fs.Ready = true, false
	fs.PDFBlobID, fs.ZIPBlobID = "", ""
	return state.Put(tx, state.TableFileSets, fs)
}

// runFilesPrepare is the preparation job: compose, render, store, mark
// ready. A job for an outdated version (a newer one was scheduled) or a gone
// object does nothing. A composition that fails is recorded on the file set
// (downloads keep answering 409 and say why); it does not fail the job.
func runFilesPrepare(s *api.Host, w *world.World, tx *state.Txn, job *state.Job) error {
	var a filesJobArgs
	if err := json.Unmarshal(job.Args, &a); err != nil {
		return fmt.Errorf("files.prepare: arguments: %w", err)
	}
	cur, err := state.GetFileSet(tx, a.Kind, job.Subject)
	if err != nil || cur.Gone || cur.Version != a.Version {
		return nil
	}
	fs := state.Clone(cur)
	out, comp, perr := prepare(s, tx, a.Kind, job.Subject)
	if perr != nil {
		w.Logger().Warn("file preparation failed", "kind", a.Kind, "id", job.Subject, "err", perr)
		fs.Error = perr.Error()
		return state.Put(tx, state.TableFileSets, fs)
	}
	pdfID, err := state.PutBlob(tx, out.PDF)
	if err != nil {
		return err
	}
	zipID, err := state.PutBlob(tx, out.ZIP)
	if err != nil {
		return err
	}
	if err := sweepFileURLs(tx, job.Subject, nil); err != nil {
		return err
	}
	if err := releaseBlobs(tx, fs.PDFBlobID, fs.ZIPBlobID); err != nil {
		return err
	}
	fs.PDFBlobID, fs.ZIPBlobID, fs.Pages = pdfID, zipID, out.Pages
	fs.Name = files.SafeName(comp.Title, "", a.Kind+"-"+job.Subject)
	fs.Ready, fs.Error, fs.PreparedAt = true, "", tx.Unix()
	return state.Put(tx, state.TableFileSets, fs)
}

// prepare composes and renders an object's files.
func prepare(s *api.Host, tx *state.Txn, kind, id string) (files.Rendered, files.Composition, error) {
	owner, ok := areasOf(s.Reg).fileOwners[kind]
	if !ok || owner.compose == nil {
		return files.Rendered{}, files.Composition{}, fmt.Errorf("no file owner for %q", kind)
	}
	comp, err := owner.compose(tx, id)
	if err != nil {
		return files.Rendered{}, files.Composition{}, err
	}
	if comp.At.IsZero() {
		comp.At = tx.Now()
	}
	out, err := files.Render(comp)
	return out, comp, err
}

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
	urls, err := state.All[state.FileURL](tx, state.TableFileURLs, state.IndexObject, objectID)
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
func preparedFiles(c *api.Call, tx *state.Txn, kind, id string) (*state.FileSet, error) {
	owner, ok := areasOf(c.Host.Reg).fileOwners[kind]
	if !ok || owner.visible == nil {
		return nil, apierr.NotFoundf(apierr.MsgNotFound)
	}
	if err := owner.visible(c, tx, id); err != nil {
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
