// Package report is POST /report/create: the request is checked and
// answered at once, a job makes one CSV per requested report type from the
// world's data a little later and e-mails the requester a link to each,
// and the sandbox serves those links.
package report
