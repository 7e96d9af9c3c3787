package io.spillover.jobs;

import java.util.Optional;
import java.util.UUID;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.repository.JpaRepository;

/** Jobs by team: every query names the team it reads. */
interface Jobs extends JpaRepository<Job, UUID> {

    Optional<Job> findByTeamAndName(String team, String name);

    Optional<Job> findByTeamAndClientToken(String team, String clientToken);

    Optional<Job> findByProviderJobName(String providerJobName);

    Page<Job> findByTeam(String team, Pageable pageable);

    Page<Job> findByTeamAndStatus(String team, JobStatus status, Pageable pageable);

    boolean existsByTeamAndName(String team, String name);

    java.util.List<Job> findByTeamInAndStatusInOrderByCreatedAt(java.util.Collection<String> teams,
                                                                java.util.Collection<JobStatus> statuses);
}
