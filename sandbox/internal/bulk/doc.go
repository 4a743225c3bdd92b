// Package bulk is the bulk send jobs of a world: the two operations that
// accept a job of requests from templates (signer_list or signer_file, its
// CSV read here), the two that read jobs, the scheduler job that creates
// each request through package sigreq, and the jobs' catalog view. It
// builds on sigreq and template; nothing but the facade imports it.
package bulk
