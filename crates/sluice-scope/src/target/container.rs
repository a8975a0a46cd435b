//! Which container a process runs in, from its cgroup path
//! (`/proc/PID/cgroup`): the container ID is the 64-hex-digit name the
//! runtimes give the container's cgroup (Docker, containerd, CRI-O,
//! Podman, under cgroupfs or systemd naming), and the Kubernetes pod UID is
//! the `pod<UID>` element above it (systemd's driver writes the UID's
//! dashes as underscores; they are given back as dashes).

/// Where a process runs: both `None` on the host itself.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Placement {
    /// The container ID (64 hex digits), if the cgroup path names one.
    pub container: Option<String>,
    /// The Kubernetes pod UID, if the cgroup path names one.
    pub pod: Option<String>,
}

/// The placement a cgroup file's text names (`/proc/PID/cgroup`: one
/// `ID:CONTROLLERS:PATH` line per hierarchy; the unified `0::` line first).
/// Parsed by `procfs`, as the live file is ([`of_process`]); text it cannot
/// parse places nothing.
#[cfg(test)]
pub(crate) fn placement(cgroup_text: &str) -> Placement {
    use procfs::FromRead;
    procfs::ProcessCGroups::from_read(cgroup_text.as_bytes())
        .map(|groups| of_groups(&groups.0))
        .unwrap_or_default()
}

/// The placement the first hierarchy that names one gives: the unified
/// one (`0::`) first, then the others (cgroup v1).
fn of_groups(groups: &[procfs::ProcessCGroup]) -> Placement {
    let mut groups: Vec<&procfs::ProcessCGroup> = groups.iter().collect();
    groups.sort_by_key(|g| !(g.hierarchy == 0 && g.controllers.is_empty()));
    groups
        .into_iter()
        .map(|g| from_path(&g.pathname))
        .find(|p| p.container.is_some() || p.pod.is_some())
        .unwrap_or_default()
}

/// The placement one cgroup path names.
pub(crate) fn from_path(path: &str) -> Placement {
    let mut out = Placement::default();
    for element in path.split('/') {
        if let Some(id) = container_id(element) {
            out.container = Some(id);
        }
        if let Some(uid) = pod_uid(element) {
            out.pod = Some(uid);
        }
    }
    out
}

/// `docker-<id>.scope`, `cri-containerd-<id>.scope`, `crio-<id>.scope`,
/// `libpod-<id>.scope`, or a bare `<id>` (cgroupfs: `/docker/<id>`,
/// `/kubepods/burstable/pod<uid>/<id>`).
fn container_id(element: &str) -> Option<String> {
    let stem = element.strip_suffix(".scope").unwrap_or(element);
    let id = stem.rsplit('-').next().unwrap_or(stem);
    (id.len() == 64 && id.bytes().all(|b| b.is_ascii_hexdigit())).then(|| id.to_ascii_lowercase())
}

/// `pod<uid>` (cgroupfs) or `...-pod<uid_with_underscores>.slice` (systemd).
fn pod_uid(element: &str) -> Option<String> {
    let stem = element.strip_suffix(".slice").unwrap_or(element);
    let at = stem.rfind("pod")?;
    if at > 0 && !stem[..at].ends_with('-') {
        return None;
    }
    let uid = stem[at + 3..].replace('_', "-");
    let shape = uid.len() == 36
        && uid.char_indices().all(|(i, c)| {
            if [8, 13, 18, 23].contains(&i) {
                c == '-'
            } else {
                c.is_ascii_hexdigit()
            }
        });
    shape.then_some(uid)
}

/// The placement of process `pid`; the host's (none) if its cgroup file
/// cannot be read.
pub(crate) fn of_process(pid: u32) -> Placement {
    crate::target::proc::process(pid)
        .ok()
        .and_then(|p| p.cgroups().ok())
        .map(|groups| of_groups(&groups.0))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kubernetes_cgroup_names_its_container_and_pod() {
        let id = "4f2b6c1d".repeat(8);
        let text = format!(
            "0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1a2b3c4d_5e6f_7081_92a3_b4c5d6e7f809.slice/cri-containerd-{id}.scope\n"
        );
        let p = placement(&text);
        assert_eq!(p.container.as_deref(), Some(id.as_str()));
        assert_eq!(
            p.pod.as_deref(),
            Some("1a2b3c4d-5e6f-7081-92a3-b4c5d6e7f809")
        );
        assert_eq!(
            placement("0::/user.slice/user-0.slice/session-3.scope\n"),
            Default::default()
        );
    }

    fn id() -> String {
        "0123456789abcdef".repeat(4)
    }

    #[test]
    fn docker_containerd_crio_podman_and_cgroupfs_paths() {
        let id = id();
        for path in [
            format!("/system.slice/docker-{id}.scope"),
            format!("/docker/{id}"),
            format!("/system.slice/containerd.service/cri-containerd-{id}.scope"),
            format!("/machine.slice/libpod-{id}.scope/container"),
            format!("/crio-{id}.scope"),
        ] {
            let p = from_path(&path);
            assert_eq!(p.container.as_deref(), Some(id.as_str()), "{path}");
            assert_eq!(p.pod, None, "{path}");
        }
    }

    #[test]
    fn kubernetes_pods_under_cgroupfs_and_systemd() {
        let id = id();
        let uid = "1a2b3c4d-5e6f-7081-92a3-b4c5d6e7f809";
        let cgroupfs = from_path(&format!("/kubepods/burstable/pod{uid}/{id}"));
        assert_eq!(cgroupfs.pod.as_deref(), Some(uid));
        assert_eq!(cgroupfs.container.as_deref(), Some(id.as_str()));
        let systemd = from_path(&format!(
            "/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod{}.slice/crio-{id}.scope",
            uid.replace('-', "_")
        ));
        assert_eq!(systemd.pod.as_deref(), Some(uid));
        assert_eq!(systemd.container.as_deref(), Some(id.as_str()));
    }

    #[test]
    fn host_paths_and_near_misses_name_nothing() {
        for path in [
            "/",
            "/user.slice/user-1000.slice/session-2.scope",
            "/system.slice/docker-0123.scope",
            "/kubepods/burstable/podnotauid",
            "/system.slice/ipod-1a2b3c4d-5e6f-7081-92a3-b4c5d6e7f809.slice",
        ] {
            assert_eq!(from_path(path), Placement::default(), "{path}");
        }
    }

    #[test]
    fn cgroup_v1_files_are_read_past_the_unified_line() {
        let id = id();
        let text = format!("12:memory:/docker/{id}\n11:cpu,cpuacct:/docker/{id}\n0::/\n");
        assert_eq!(placement(&text).container.as_deref(), Some(id.as_str()));
    }
}
