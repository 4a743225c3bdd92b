// Package manifests checks the Kubernetes manifests of this directory without
// a cluster: each document is decoded strictly into the types of k8s.io/api
// (an unknown or repeated field fails, as `kubectl apply --validate=strict`
// would), and the settings that must agree across files do: the StatefulSet,
// its headless Service and its probes; the router's ConfigMap, which holds
// deploy/haproxy/haproxy.cfg as it is and the server list servers.sh writes
// for the StatefulSet's pods; the router's ports and probes. It also holds
// servers.sh to the checks it promises.
//
// It is a module of its own so that the sandbox's module does not depend on
// the Kubernetes libraries. After changing deploy/haproxy or the replicas:
//
//	go test ./... -update    # rewrites router-config.yaml
package manifests

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

var update = flag.Bool("update", false, "rewrite router-config.yaml from deploy/haproxy and the StatefulSet")

const (
	haproxyDir   = "../haproxy"
	routerConfig = "router-config.yaml"
	// shardLen is the length of the tags the StatefulSet's pods take
	// (printf '%02x' of their ordinal).
	shardLen = 2
)

// manifests are the files kubectl applies, in kustomization.yaml's order.
var manifests = []string{"signsandbox.yaml", routerConfig, "router.yaml"}

// decodeStrict decodes every document of a file into the k8s.io/api types,
// refusing unknown and repeated fields.
func decodeStrict(t *testing.T, file string) []runtime.Object {
	t.Helper()
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{corev1.AddToScheme, appsv1.AddToScheme} {
		if err := add(scheme); err != nil {
			t.Fatal(err)
		}
	}
	dec := json.NewSerializerWithOptions(json.DefaultMetaFactory, scheme, scheme, json.SerializerOptions{Yaml: true, Strict: true})
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(raw)))
	var out []runtime.Object
	for i := 1; ; i++ {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s: document %d: %v", file, i, err)
		}
		if len(bytes.TrimSpace(stripComments(doc))) == 0 {
			continue
		}
		obj, _, err := dec.Decode(doc, nil, nil)
		if err != nil {
			t.Fatalf("%s: document %d does not decode strictly: %v", file, i, err)
		}
		out = append(out, obj)
	}
	return out
}

func stripComments(doc []byte) []byte {
	var b bytes.Buffer
	for _, line := range strings.Split(string(doc), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "#") {
			b.WriteString(line + "\n")
		}
	}
	return b.Bytes()
}

// objects holds every manifest's objects by kind and name.
type objects struct {
	services     map[string]*corev1.Service
	configMaps   map[string]*corev1.ConfigMap
	statefulSets map[string]*appsv1.StatefulSet
	deployments  map[string]*appsv1.Deployment
}

func load(t *testing.T) objects {
	t.Helper()
	o := objects{map[string]*corev1.Service{}, map[string]*corev1.ConfigMap{}, map[string]*appsv1.StatefulSet{}, map[string]*appsv1.Deployment{}}
	for _, f := range manifests {
		for _, obj := range decodeStrict(t, f) {
			switch v := obj.(type) {
			case *corev1.Service:
				o.services[v.Name] = v
			case *corev1.ConfigMap:
				o.configMaps[v.Name] = v
			case *appsv1.StatefulSet:
				o.statefulSets[v.Name] = v
			case *appsv1.Deployment:
				o.deployments[v.Name] = v
			default:
				t.Fatalf("%s: unexpected %T", f, obj)
			}
		}
	}
	return o
}

func (o objects) server(t *testing.T) (*appsv1.StatefulSet, *corev1.Container) {
	t.Helper()
	sts := o.statefulSets["signsandbox"]
	if sts == nil {
		t.Fatal("no StatefulSet signsandbox")
	}
	return sts, container(t, &sts.Spec.Template.Spec, "signsandbox")
}

func (o objects) router(t *testing.T) (*appsv1.Deployment, *corev1.Container) {
	t.Helper()
	d := o.deployments["signsandbox-router"]
	if d == nil {
		t.Fatal("no Deployment signsandbox-router")
	}
	return d, container(t, &d.Spec.Template.Spec, "haproxy")
}

func container(t *testing.T, spec *corev1.PodSpec, name string) *corev1.Container {
	t.Helper()
	for i := range spec.Containers {
		if spec.Containers[i].Name == name {
			return &spec.Containers[i]
		}
	}
	t.Fatalf("no container %s", name)
	return nil
}

func env(c *corev1.Container, name string) *corev1.EnvVar {
	for i := range c.Env {
		if c.Env[i].Name == name {
			return &c.Env[i]
		}
	}
	return nil
}

func envValue(t *testing.T, c *corev1.Container, name string) string {
	t.Helper()
	e := env(c, name)
	if e == nil || e.ValueFrom != nil {
		t.Fatalf("container %s: no literal %s", c.Name, name)
	}
	return e.Value
}

func port(t *testing.T, c *corev1.Container, name string) int32 {
	t.Helper()
	for _, p := range c.Ports {
		if p.Name == name {
			return p.ContainerPort
		}
	}
	t.Fatalf("container %s has no port %q", c.Name, name)
	return 0
}

func probePath(t *testing.T, what string, p *corev1.Probe, wantPort string) string {
	t.Helper()
	if p == nil || p.HTTPGet == nil {
		t.Fatalf("%s: no HTTP probe", what)
	}
	if p.HTTPGet.Port.String() != wantPort {
		t.Errorf("%s probes port %s, want %s", what, p.HTTPGet.Port.String(), wantPort)
	}
	return p.HTTPGet.Path
}

func sameLabels(t *testing.T, what string, selector, labels map[string]string) {
	t.Helper()
	if len(selector) == 0 {
		t.Errorf("%s: empty selector", what)
	}
	for k, v := range selector {
		if labels[k] != v {
			t.Errorf("%s: selector %s=%s does not match the pods' labels %v", what, k, v, labels)
		}
	}
}

func TestKustomizationListsEveryManifest(t *testing.T) {
	raw, err := os.ReadFile("kustomization.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var k struct {
		APIVersion string   `json:"apiVersion"`
		Kind       string   `json:"kind"`
		Resources  []string `json:"resources"`
	}
	if err := yaml.UnmarshalStrict(raw, &k); err != nil {
		t.Fatalf("kustomization.yaml: %v", err)
	}
	if k.Kind != "Kustomization" || !slices.Equal(k.Resources, manifests) {
		t.Errorf("kustomization.yaml lists %v, want %v", k.Resources, manifests)
	}
	found, _ := filepath.Glob("*.yaml")
	for _, f := range found {
		if f != "kustomization.yaml" && !slices.Contains(manifests, f) {
			t.Errorf("%s is in no kustomization", f)
		}
	}
}

func TestServersStatefulSet(t *testing.T) {
	o := load(t)
	sts, c := o.server(t)
	pod := &sts.Spec.Template.Spec

	svc := o.services[sts.Spec.ServiceName]
	if svc == nil || svc.Spec.ClusterIP != corev1.ClusterIPNone {
		t.Fatalf("the StatefulSet's service %q must be headless (clusterIP: None)", sts.Spec.ServiceName)
	}
	sameLabels(t, "StatefulSet", sts.Spec.Selector.MatchLabels, sts.Spec.Template.Labels)
	sameLabels(t, "headless Service", svc.Spec.Selector, sts.Spec.Template.Labels)
	if len(svc.Spec.Ports) != 1 || svc.Spec.Ports[0].TargetPort.String() != "http" {
		t.Errorf("the headless Service must send port %d to the container port http", svc.Spec.Ports[0].Port)
	}
	port(t, c, "http")

	replicas := *sts.Spec.Replicas
	if replicas < 1 || replicas > 1<<(4*shardLen) {
		t.Errorf("%d replicas: tags of %d hex characters name 1 to %d pods", replicas, shardLen, 1<<(4*shardLen))
	}
	script := strings.Join(append(append([]string{}, c.Command...), c.Args...), " ")
	if !strings.Contains(script, fmt.Sprintf("printf '%%0%dx'", shardLen)) || !strings.Contains(script, "export SIGNSANDBOX_SHARD") {
		t.Errorf("the container must derive SIGNSANDBOX_SHARD from its ordinal in %d hex characters: %s", shardLen, script)
	}
	if e := env(c, "POD_NAME"); e == nil || e.ValueFrom == nil || e.ValueFrom.FieldRef == nil || e.ValueFrom.FieldRef.FieldPath != "metadata.name" {
		t.Error("POD_NAME must come from metadata.name (the ordinal is read from it)")
	}
	if env(c, "SIGNSANDBOX_SHARD") != nil {
		t.Error("SIGNSANDBOX_SHARD is the pod's own, from its ordinal: no fixed value")
	}

	// --data-dir on the volume each pod keeps.
	dataDir := envValue(t, c, "SIGNSANDBOX_DATA_DIR")
	claim := ""
	for _, m := range c.VolumeMounts {
		if m.MountPath == dataDir {
			claim = m.Name
		}
	}
	if !slices.ContainsFunc(sts.Spec.VolumeClaimTemplates, func(p corev1.PersistentVolumeClaim) bool { return p.Name == claim }) {
		t.Errorf("SIGNSANDBOX_DATA_DIR %s is not the mount of a volumeClaimTemplate", dataDir)
	}
	if pod.SecurityContext == nil || pod.SecurityContext.FSGroup == nil || pod.SecurityContext.RunAsUser == nil || *pod.SecurityContext.FSGroup != *pod.SecurityContext.RunAsUser {
		t.Error("fsGroup must be the server's user, so that it can write its volume")
	}

	// The admin token comes from a Secret, never from the manifest.
	if e := env(c, "SIGNSANDBOX_ADMIN_TOKEN"); e == nil || e.Value != "" || e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil {
		t.Error("SIGNSANDBOX_ADMIN_TOKEN must come from a secretKeyRef")
	}
	if !strings.Contains(envValue(t, c, "SIGNSANDBOX_ALLOWED_HOSTS"), "signsandbox-router") {
		t.Error("the servers must answer under the router's Service name")
	}

	if p := probePath(t, "readiness", c.ReadinessProbe, "http"); p != "/_sandbox/ready" {
		t.Errorf("readiness probe on %s, want /_sandbox/ready", p)
	}
	if p := probePath(t, "liveness", c.LivenessProbe, "http"); p != "/_sandbox/health" {
		t.Errorf("liveness probe on %s, want /_sandbox/health", p)
	}

	// Files are held in memory: their cap must leave the heap room.
	limit := c.Resources.Limits.Memory()
	stored := resource.MustParse(strings.TrimSuffix(envValue(t, c, "SIGNSANDBOX_MAX_STORED_BYTES"), "B"))
	if limit.IsZero() || c.Resources.Requests.Memory().IsZero() || c.Resources.Requests.Cpu().IsZero() {
		t.Error("the server needs CPU and memory requests and a memory limit")
	} else if stored.Value()*2 > limit.Value() {
		t.Errorf("SIGNSANDBOX_MAX_STORED_BYTES %s is more than half the memory limit %s", stored.String(), limit.String())
	}

	tools := pod.InitContainers
	if len(tools) != 1 || !slices.ContainsFunc(c.VolumeMounts, func(m corev1.VolumeMount) bool {
		return m.Name == tools[0].VolumeMounts[0].Name && strings.HasPrefix(c.Command[0], m.MountPath+"/")
	}) {
		t.Error("the container's shell must be the one the init container copies into the shared volume")
	}
}

func TestRouterDeployment(t *testing.T) {
	o := load(t)
	sts, server := o.server(t)
	d, c := o.router(t)
	sameLabels(t, "router Deployment", d.Spec.Selector.MatchLabels, d.Spec.Template.Labels)
	svc := o.services["signsandbox-router"]
	if svc == nil {
		t.Fatal("no Service signsandbox-router")
	}
	sameLabels(t, "router Service", svc.Spec.Selector, d.Spec.Template.Labels)
	if len(svc.Spec.Ports) != 1 || svc.Spec.Ports[0].TargetPort.String() != "http" {
		t.Error("the router Service must send its port to the container port http")
	}

	// HAProxy reads its files from the ConfigMap's mount.
	var cm *corev1.ConfigMap
	mount := ""
	for _, v := range d.Spec.Template.Spec.Volumes {
		if v.ConfigMap != nil {
			cm = o.configMaps[v.ConfigMap.Name]
			for _, m := range c.VolumeMounts {
				if m.Name == v.Name {
					mount = m.MountPath
				}
			}
		}
	}
	if cm == nil || mount == "" {
		t.Fatal("the router must mount its ConfigMap")
	}
	var files []string
	for i, a := range c.Args {
		if a == "-f" && i+1 < len(c.Args) {
			files = append(files, c.Args[i+1])
		}
	}
	if want := []string{mount + "/haproxy.cfg", mount + "/servers.cfg"}; !slices.Equal(files, want) {
		t.Errorf("haproxy -f %v, want %v", files, want)
	}
	for _, f := range files {
		if _, ok := cm.Data[filepath.Base(f)]; !ok {
			t.Errorf("the ConfigMap has no %s", filepath.Base(f))
		}
	}

	// The environment haproxy.cfg reads, against the container's ports.
	cfg := cm.Data["haproxy.cfg"]
	if got := envValue(t, c, "SIGNSANDBOX_SHARD_LEN"); got != fmt.Sprint(shardLen) {
		t.Errorf("SIGNSANDBOX_SHARD_LEN %s, but the pods' tags have %d characters", got, shardLen)
	}
	if got := envValue(t, c, "SIGNSANDBOX_ROUTER_ADDR"); got != fmt.Sprintf(":%d", port(t, c, "http")) {
		t.Errorf("SIGNSANDBOX_ROUTER_ADDR %s is not the port http", got)
	}
	if got := envValue(t, c, "SIGNSANDBOX_ROUTER_ADMIN_ADDR"); got != fmt.Sprintf(":%d", port(t, c, "admin")) {
		t.Errorf("SIGNSANDBOX_ROUTER_ADMIN_ADDR %s is not the port admin", got)
	}
	if e := env(c, "POD_NAMESPACE"); e == nil || e.ValueFrom == nil || e.ValueFrom.FieldRef == nil || e.ValueFrom.FieldRef.FieldPath != "metadata.namespace" {
		t.Error("POD_NAMESPACE (in the servers' DNS names) must come from metadata.namespace")
	}
	for what, p := range map[string]*corev1.Probe{"router readiness": c.ReadinessProbe, "router liveness": c.LivenessProbe} {
		if path := probePath(t, what, p, "admin"); !strings.Contains(cfg, "monitor-uri "+path+"\n") {
			t.Errorf("%s on %s, which haproxy.cfg does not answer", what, path)
		}
	}
	// The router's health check is the servers' readiness probe.
	if !strings.Contains(cfg, "option httpchk GET "+server.ReadinessProbe.HTTPGet.Path+"\n") {
		t.Error("haproxy.cfg must check each server on its readiness probe's path")
	}
	sc := d.Spec.Template.Spec.SecurityContext
	if sc == nil || sc.RunAsUser == nil || *sc.RunAsUser != 99 {
		t.Error("the haproxy image's user is haproxy, uid 99: runAsNonRoot needs it by number")
	}
	if c.Resources.Requests.Cpu().IsZero() || c.Resources.Limits.Memory().IsZero() {
		t.Error("the router needs a CPU request and a memory limit")
	}
	_ = sts
}

// TestRouterConfigMapIsCurrent holds the ConfigMap to deploy/haproxy: the
// routing rules as they are, and the server list servers.sh writes for the
// StatefulSet's pods by their stable DNS names.
func TestRouterConfigMapIsCurrent(t *testing.T) {
	// The StatefulSet alone, so that -update can write a missing file.
	var sts *appsv1.StatefulSet
	for _, obj := range decodeStrict(t, "signsandbox.yaml") {
		if v, ok := obj.(*appsv1.StatefulSet); ok {
			sts = v
		}
	}
	if sts == nil {
		t.Fatal("signsandbox.yaml holds no StatefulSet")
	}
	server := container(t, &sts.Spec.Template.Spec, "signsandbox")
	want := renderRouterConfig(t, sts, port(t, server, "http"))
	if *update {
		if err := os.WriteFile(routerConfig, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(routerConfig)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is not what deploy/haproxy and the StatefulSet give: run go test ./... -update in deploy/kubernetes", routerConfig)
	}
	cm := load(t).configMaps["signsandbox-router"]
	cfg, err := os.ReadFile(filepath.Join(haproxyDir, "haproxy.cfg"))
	if err != nil {
		t.Fatal(err)
	}
	if cm == nil || cm.Data["haproxy.cfg"] != string(cfg) {
		t.Error("the ConfigMap's haproxy.cfg must be deploy/haproxy/haproxy.cfg byte for byte")
	}
	// One backend per pod, tagged with its ordinal in hex.
	for i := range int(*sts.Spec.Replicas) {
		tag := fmt.Sprintf("%0*x", shardLen, i)
		line := fmt.Sprintf("server %s \"%s-%d.%s.${POD_NAMESPACE}.svc.cluster.local:%d\" check", tag, sts.Name, i, sts.Spec.ServiceName, port(t, server, "http"))
		if !strings.Contains(cm.Data["servers.cfg"], "backend shard_"+tag+"\n    "+line) {
			t.Errorf("servers.cfg has no backend shard_%s for pod %d", tag, i)
		}
	}
}

func renderRouterConfig(t *testing.T, sts *appsv1.StatefulSet, serverPort int32) []byte {
	t.Helper()
	args := []string{filepath.Join(haproxyDir, "servers.sh"), "--dns"}
	for i := range int(*sts.Spec.Replicas) {
		args = append(args, fmt.Sprintf("%0*x=%s-%d.%s.${POD_NAMESPACE}.svc.cluster.local:%d", shardLen, i, sts.Name, i, sts.Spec.ServiceName, serverPort))
	}
	servers, err := exec.Command("sh", args...).Output()
	if err != nil {
		t.Fatalf("servers.sh: %v", err)
	}
	cfg, err := os.ReadFile(filepath.Join(haproxyDir, "haproxy.cfg"))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, `# The router's configuration: deploy/haproxy/haproxy.cfg as it is, and the list of
# the StatefulSet's %d pods that deploy/haproxy/servers.sh writes. Written by
#   cd deploy/kubernetes && go test ./... -update
# from those files and signsandbox.yaml: change them, not this one.
apiVersion: v1
kind: ConfigMap
metadata:
  name: signsandbox-router
  labels:
    app.kubernetes.io/name: signsandbox
    app.kubernetes.io/component: router
data:
`, *sts.Spec.Replicas)
	for _, f := range []struct {
		key  string
		body []byte
	}{{"haproxy.cfg", cfg}, {"servers.cfg", servers}} {
		fmt.Fprintf(&b, "  %s: |\n", f.key)
		for _, line := range strings.SplitAfter(string(f.body), "\n") {
			if strings.TrimSpace(line) == "" {
				b.WriteString(strings.TrimLeft(line, " \t"))
				continue
			}
			b.WriteString("    " + line)
		}
	}
	if tab := regexp.MustCompile("\t"); tab.Match(b.Bytes()) {
		t.Fatal("a tab would break the YAML block: the HAProxy files must indent with spaces")
	}
	return b.Bytes()
}

// TestHAProxyReadsTheConfigMap runs haproxy -c on the ConfigMap's files with
// the Deployment's environment, where HAProxy is installed (CI installs it).
func TestHAProxyReadsTheConfigMap(t *testing.T) {
	haproxy, err := exec.LookPath("haproxy")
	if err != nil {
		if _, statErr := os.Stat("/usr/sbin/haproxy"); statErr != nil {
			t.Skip("haproxy is not installed (apt-get install haproxy): the ConfigMap is not checked by HAProxy itself")
		}
		haproxy = "/usr/sbin/haproxy"
	}
	o := load(t)
	_, c := o.router(t)
	cm := o.configMaps["signsandbox-router"]
	dir := t.TempDir()
	var args []string
	for _, name := range []string{"haproxy.cfg", "servers.cfg"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(cm.Data[name]), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, "-f", p)
	}
	cmd := exec.Command(haproxy, append([]string{"-c", "-q"}, args...)...)
	cmd.Env = append(os.Environ(), "POD_NAMESPACE=default")
	for _, e := range c.Env {
		if e.ValueFrom == nil {
			cmd.Env = append(cmd.Env, e.Name+"="+e.Value)
		}
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("haproxy -c: %v\n%s", err, out)
	}
}

// TestServersShRefusesBadLists: the list the router reads is checked as
// --shard checks a tag, so that a typo stops before HAProxy starts.
func TestServersShRefusesBadLists(t *testing.T) {
	script := filepath.Join(haproxyDir, "servers.sh")
	for _, bad := range [][]string{
		{},
		{"01"},
		{"01="},
		{"0G=127.0.0.1:8081"},
		{"ABC=127.0.0.1:8081"},
		{"123456789=127.0.0.1:8081"},
		{"01=127.0.0.1:8081", "002=127.0.0.1:8082"},
		{"01=127.0.0.1:8081", "01=127.0.0.1:8082"},
		{"01=127.0.0.1 8081"},
		{"--unrouted", "03", "01=127.0.0.1:8081", "02=127.0.0.1:8082"},
	} {
		out, err := exec.Command("sh", append([]string{script}, bad...)...).CombinedOutput()
		if err == nil {
			t.Errorf("servers.sh %v was accepted:\n%s", bad, out)
		}
	}
	out, err := exec.Command("sh", script, "--unrouted", "02", "01=127.0.0.1:8081", "02=127.0.0.1:8082").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "backend unrouted\n    server 02 \"127.0.0.1:8082\" track shard_02/02\n") {
		t.Errorf("--unrouted 02 is not the unrouted server:\n%s", out)
	}
}
