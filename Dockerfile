# The sample server's or the sample supervisor's image, from Spring Boot's layered jar (docs/kubernetes.md):
#   ./mvnw -B package -pl sample-server,sample-supervisor -am -DskipTests
#   docker build --build-arg APP=sample-server -t startup-telemetry/sample-server:0.1.0 .
#   docker build --build-arg APP=sample-supervisor -t startup-telemetry/sample-supervisor:0.1.0 .
# Layers change least-often first (the dependencies, Boot's loader, snapshots, the application), so a rebuild after a
# code change ships only the last. Runs as a numeric non-root user: Pod Security "restricted" (runAsNonRoot) checks it.
# Not built on the machines this project is developed on (no Docker engine there); the kind workflow builds it.
ARG JAVA_IMAGE=eclipse-temurin:21-jre

FROM ${JAVA_IMAGE} AS layers
ARG APP=sample-server
WORKDIR /build
COPY ${APP}/target/${APP}.jar app.jar
RUN java -Djarmode=tools -jar app.jar extract --layers --launcher --destination extracted

FROM ${JAVA_IMAGE}
WORKDIR /app
COPY --from=layers /build/extracted/dependencies/ ./
COPY --from=layers /build/extracted/spring-boot-loader/ ./
COPY --from=layers /build/extracted/snapshot-dependencies/ ./
COPY --from=layers /build/extracted/application/ ./
USER 10001:10001
ENTRYPOINT ["java", "-cp", "/app", "org.springframework.boot.loader.launch.JarLauncher"]
