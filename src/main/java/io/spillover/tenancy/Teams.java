package io.spillover.tenancy;

import org.springframework.data.jpa.repository.JpaRepository;

interface Teams extends JpaRepository<Team, String> {
}
