package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// sdkHint says how to give the runner the official SDKs that no registry
// reachable here has (PyPI, RubyGems, Packagist).
const sdkHint = "set SIGNSANDBOX_DOCS_SDKS to the sdks/ folder of the official hellosign-openapi repository"

// probe finds which runners and SDKs this machine has. The blocks of the
// others are skipped, each with the reason.
func probe(cfg *config) runtimes {
	rt := runtimes{missing: map[string]string{}}
	for runner, cmd := range map[string]string{"shell": "bash", "node": "node", "python": "python3", "ruby": "ruby", "php": "php", "go": "go"} {
		if _, err := exec.LookPath(cmd); err != nil {
			rt.missing[runner] = "needs " + cmd + ", which is not installed"
		}
	}
	for _, pkg := range []string{"@dropbox/sign", "hellosign-sdk"} {
		if _, err := os.Stat(filepath.Join(cfg.nodeModules, pkg, "package.json")); err != nil {
			rt.missing["node:"+pkg] = fmt.Sprintf("needs %s in %s (cd e2e && npm ci)", pkg, cfg.nodeModules)
		}
	}
	sdk := func(lang string) string { return filepath.Join(cfg.sdks, lang) }
	checks := map[string]struct {
		runner string
		cmd    *exec.Cmd
		env    string
		what   string
	}{
		"python:sdk": {"python", exec.Command("python3", "-c", "import dropbox_sign"), "PYTHONPATH=" + sdk("python"),
			"the official Python SDK (dropbox_sign) and its dependencies (urllib3, python-dateutil, pydantic)"},
		"ruby:sdk": {"ruby", exec.Command("ruby", "-e", `require "dropbox-sign"`), "RUBYLIB=" + filepath.Join(sdk("ruby"), "lib"),
			"the official Ruby SDK (dropbox-sign) and typhoeus (Debian: ruby-typhoeus)"},
		"php:sdk": {"php", exec.Command("php", "-r", phpAutoload+` exit(class_exists('Dropbox\Sign\Configuration') && class_exists('GuzzleHttp\Client') ? 0 : 1);`),
			"DOCEXAMPLES_PHP_SDK=" + sdk("php"), "the official PHP SDK (dropbox/sign) and Guzzle (Debian: php-guzzlehttp-guzzle, php-curl, php-mbstring)"},
	}
	for key, c := range checks {
		if _, gone := rt.missing[c.runner]; gone {
			continue
		}
		if cfg.sdks == "" {
			rt.missing[key] = "needs " + c.what + ": " + sdkHint
			continue
		}
		c.cmd.Env = append(os.Environ(), c.env)
		if out, err := c.cmd.CombinedOutput(); err != nil {
			rt.missing[key] = fmt.Sprintf("needs %s (%v: %s)", c.what, err, tail(string(out), 3))
			continue
		}
		rt.env = append(rt.env, c.env)
	}
	return rt
}

// phpAutoload stands in for Composer's vendor/autoload.php: the official
// SDK's classes from DOCEXAMPLES_PHP_SDK/src (PSR-4, as its composer.json
// maps them) and Debian's Guzzle.
const phpAutoload = `require_once 'GuzzleHttp/autoload.php';
spl_autoload_register(function ($class) {
    $prefix = 'Dropbox\\Sign\\';
    if (strncmp($class, $prefix, strlen($prefix)) === 0) {
        $file = getenv('DOCEXAMPLES_PHP_SDK') . '/src/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
        if (is_file($file)) {
            require $file;
        }
    }
});`

// prepare lays in a work directory what a reader's project would have
// installed: node_modules with the official Node SDK, the legacy one and
// this checkout's npm package, and vendor/autoload.php for PHP.
func (rt runtimes) prepare(cfg *config, work string) error {
	links := map[string]string{
		"node_modules/@dropbox/sign":    filepath.Join(cfg.nodeModules, "@dropbox", "sign"),
		"node_modules/hellosign-sdk":    filepath.Join(cfg.nodeModules, "hellosign-sdk"),
		"node_modules/signsandbox":      filepath.Join(cfg.root, "npm", "signsandbox"),
		"node_modules/.bin/signsandbox": filepath.Join(cfg.root, "npm", "signsandbox", "bin", "signsandbox.js"),
	}
	for name, target := range links {
		path := filepath.Join(work, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.Symlink(target, path); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(filepath.Join(work, "vendor"), 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(work, "vendor", "autoload.php"), []byte("<?php\n"+phpAutoload+"\n"), 0o644)
}
